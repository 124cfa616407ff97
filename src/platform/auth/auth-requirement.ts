import type { FastifyRequest } from 'fastify';
import type { Permission } from './permissions';

/** Where a route finds the account or agent it touches: a path parameter name, or a function. */
export type ResourceLocator = string | ((request: FastifyRequest) => unknown);

export interface AuthRequirement {
  /** The permission the key needs; null: any live key of the account. */
  permission: Permission | null;
  account?: ResourceLocator;
  agent?: ResourceLocator;
  /** The operator token (x-operator-token) is accepted instead of a key. */
  operator?: boolean;
  /**
   * Conversations API (contract §4): a key that reaches the project but lacks the permission still
   * passes; the controller answers with basic fields only.
   */
  permissionShapesResponse?: boolean;
  /**
   * Account-wide resources (webhook endpoints): only a key scoped to all agents (`agents: "all"`)
   * may touch them, since they carry every agent's events.
   */
  allAgents?: boolean;
}

export const AUTH_REQUIREMENT = 'parley:auth-requirement';

export function locate(request: FastifyRequest, locator: ResourceLocator | undefined): string | undefined {
  if (locator === undefined) return undefined;
  const value = typeof locator === 'function' ? locator(request) : (request.params as Record<string, unknown>)[locator];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
