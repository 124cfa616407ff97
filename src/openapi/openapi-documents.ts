import { Inject, Injectable } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { CONFIG, type Config } from '../platform/config/config';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';
import type { RouteDocTable } from './route-docs';
import { declaredRoutes } from './route-table';

/** Token of the route tables (src/app.route-docs.ts), provided by OpenApiModule. */
export const ROUTE_DOC_TABLES = Symbol('RouteDocTables');

/** The document of this process, built on first request (the routes are fixed once the app runs). */
@Injectable()
export class OpenApiDocuments {
  private built?: OpenApiDocument;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ROUTE_DOC_TABLES) private readonly tables: RouteDocTable[],
  ) {}

  document(): OpenApiDocument {
    this.built ??= buildOpenApiDocument(declaredRoutes(this.modules), this.tables, {
      publicDomain: this.config.publicDomain,
      region: this.config.region,
    });
    return this.built;
  }
}
