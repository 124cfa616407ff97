/**
 * The environments an agent is deployed to (interface.md), in promotion order: every context that
 * names one (keys' scopes, DNI pools, caller ids, concurrency) speaks of the same three.
 */
export const DEPLOYMENT_ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const;
export type DeploymentEnvironment = (typeof DEPLOYMENT_ENVIRONMENTS)[number];
