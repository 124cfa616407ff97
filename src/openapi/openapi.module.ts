import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocuments, ROUTE_DOC_TABLES } from './openapi-documents';
import { ROUTE_DOCS } from './route-docs.index';

/** The API reference: /openapi.json and /docs. Reads every other module's routes, depends on none. */
@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocuments, { provide: ROUTE_DOC_TABLES, useValue: ROUTE_DOCS }],
  exports: [OpenApiDocuments],
})
export class OpenApiModule {}
