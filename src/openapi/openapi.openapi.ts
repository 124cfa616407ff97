import { routeDocs } from './route-docs';
import { OpenApiController } from './openapi.controller';

export const openApiDocs = routeDocs(OpenApiController, 'reference', {
  document: {
    summary: 'This OpenAPI 3.1 document',
    security: [],
    responses: { 200: { description: 'The document', schema: { type: 'object', required: ['openapi', 'paths'] } } },
  },
  page: {
    summary: 'The browsable reference (swagger-ui)',
    security: [],
    responses: { 200: { description: 'An HTML page', contentType: 'text/html', schema: { type: 'string' } } },
  },
  asset: {
    summary: "A file of the browsable reference (swagger-ui's script, style, icon)",
    security: [],
    errors: [404],
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream', schema: { type: 'string' } },
    },
  },
});
