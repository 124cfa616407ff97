import { openApiDocs } from './openapi.openapi';
import type { RouteDocTable } from './route-docs';

/**
 * Every route table: the answers and summaries of each controller's routes. A new controller adds
 * its table here; test/openapi/openapi-completeness.e2e.spec.ts names any route left out.
 */
export const ROUTE_DOCS: RouteDocTable[] = [openApiDocs];
