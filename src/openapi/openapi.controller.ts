import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { notFound } from '../platform/errors/domain-error';
import { PAGE_SECURITY_HEADERS } from '../platform/http/page-security';
import { OpenApiDocuments } from './openapi-documents';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE, SwaggerUiAssets } from './swagger-ui-assets';

/**
 * The API reference (issue 34): the OpenAPI document at /openapi.json and swagger-ui at /docs.
 * Public and on every host, like health: it describes routes, never data (docs/api/README.md).
 */
@Controller()
export class OpenApiController {
  private readonly assets = new SwaggerUiAssets();

  constructor(private readonly documents: OpenApiDocuments) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  document() {
    return this.documents.document();
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
  @Header('x-content-type-options', PAGE_SECURITY_HEADERS['x-content-type-options'])
  @Header('x-frame-options', PAGE_SECURITY_HEADERS['x-frame-options'])
  @Header('cache-control', 'no-cache')
  page() {
    return DOCS_PAGE;
  }

  @Get('docs/:file')
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const asset = this.assets.get(file);
    if (!asset) throw notFound('NOT_FOUND', `no such file under /docs: ${file.slice(0, 100)}`);
    reply
      .header('content-type', asset.contentType)
      .header('x-content-type-options', PAGE_SECURITY_HEADERS['x-content-type-options'])
      .header('cache-control', 'public, max-age=3600');
    return asset.body;
  }
}
