import { Controller, Get, Header } from '@nestjs/common';
import { inlineHashes, PAGE_SECURITY_HEADERS } from '../platform/http/page-security';
import { CHAT_DEMO_PAGE } from './chat-demo.page';

/**
 * Only the page's own script and style blocks run (by hash, not 'unsafe-inline'), it talks only
 * to its own origin, and no other site may frame it.
 */
const CHAT_DEMO_POLICY = [
  "default-src 'none'",
  `script-src ${inlineHashes(CHAT_DEMO_PAGE, 'script').join(' ')}`,
  `style-src ${inlineHashes(CHAT_DEMO_PAGE, 'style').join(' ')}`,
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** GET /chat/demo?connector=<connector token>: the demo web chat (the page reads its query itself). */
@Controller('chat')
export class ChatDemoController {
  @Get('demo')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', CHAT_DEMO_POLICY)
  @Header('x-content-type-options', PAGE_SECURITY_HEADERS['x-content-type-options'])
  @Header('x-frame-options', PAGE_SECURITY_HEADERS['x-frame-options'])
  @Header('cache-control', 'no-store')
  page() {
    return CHAT_DEMO_PAGE;
  }
}
