import fs from 'node:fs';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { PAGE_SECURITY_HEADERS } from '../platform/http/page-security';
import { defaultStudioDir, resolveStudioPath } from './studio-files';
import { studioHosts } from './studio-hosts';

/** Studio's own connections: its API calls, and the desk's WebSocket. */
function contentSecurityPolicy(hosts: { build: string | null; platform: string | null }): string {
  const apis = [hosts.build, hosts.platform].filter((h): h is string => !!h);
  const sockets = apis.map((h) => h.replace(/^http/, 'ws'));
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${[...apis, ...sockets].join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A 404 under /studio is still a page's answer: it carries the pages' headers. */
function pageNotFound(code: string, message: string): DomainError {
  return new DomainError(code, message, 404, null, [], { ...PAGE_SECURITY_HEADERS });
}

/**
 * Serves the built Studio (dist/studio) at /studio: files by name, index.html for the app's own
 * routes, and a 404 in the error envelope when Studio is not built. Not an API: no key, any host.
 */
@ApiExcludeController()
@Controller('studio')
export class StudioController {
  private readonly dir: string;

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.dir = config.studioDir ?? defaultStudioDir(__dirname);
  }

  @Get('config.json')
  studioConfig(@Req() request: FastifyRequest) {
    return { hosts: studioHosts(this.config.publicDomain, this.config.region, request.protocol) };
  }

  @Get()
  index(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.send('', request, reply);
  }

  // find-my-way's wildcard: the rest of the path, decoded, in params['*']
  @Get('*')
  file(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const rest = (request.params as Record<string, unknown>)['*'];
    return this.send(typeof rest === 'string' ? rest : '', request, reply);
  }

  private send(rest: string, request: FastifyRequest, reply: FastifyReply) {
    const answer = resolveStudioPath(this.dir, rest);
    if (answer.kind === 'not-built')
      throw pageNotFound(
        'STUDIO_NOT_BUILT',
        'Studio is not built: run `npm run build` (it needs the dev dependencies)',
      );
    if (answer.kind === 'not-found') throw pageNotFound('NOT_FOUND', `no Studio file ${rest}`);
    const hosts = studioHosts(this.config.publicDomain, this.config.region, request.protocol);
    return reply
      .header('content-type', answer.contentType)
      .header('cache-control', answer.cacheControl)
      .headers(PAGE_SECURITY_HEADERS)
      .header('content-security-policy', contentSecurityPolicy(hosts))
      .header('referrer-policy', 'no-referrer')
      .send(fs.createReadStream(answer.file));
  }
}
