import { Controller, Get } from '@nestjs/common';
import { RequireApiKey } from '../../src/platform/auth/key.guard';

const BODY = { ok: true, probe: 'same body on both routes' };

/**
 * Two routes that differ only by the real key check: the A/B pair that isolates what
 * authentication costs (same handler, same body, same global pipes and interceptors).
 */
@Controller('bench/probe')
export class AuthProbeController {
  @Get('open')
  open() {
    return BODY;
  }

  @Get('authed')
  @RequireApiKey({ permission: 'agents' })
  authed() {
    return BODY;
  }
}
