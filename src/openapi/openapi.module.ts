import { Module, type DynamicModule } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocuments, ROUTE_DOC_TABLES } from './openapi-documents';
import type { RouteDocTable } from './route-docs';

/**
 * The API reference: /openapi.json and /docs. Reads every other module's routes and depends on
 * none: each context declares its routes' answers in its `*.openapi.ts`, and the composition root
 * hands the tables in (src/app.route-docs.ts), as it does the upcasters and the platform tables.
 */
@Module({})
export class OpenApiModule {
  static forRoot(tables: RouteDocTable[]): DynamicModule {
    return {
      module: OpenApiModule,
      controllers: [OpenApiController],
      providers: [OpenApiDocuments, { provide: ROUTE_DOC_TABLES, useValue: tables }],
      exports: [OpenApiDocuments],
    };
  }
}
