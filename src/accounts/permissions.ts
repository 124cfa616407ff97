// The key guard's vocabulary lives with the guard (platform/auth); re-exported here for the account code.
export { PERMISSIONS, type Permission } from '../platform/auth/permissions';
import type { DeploymentEnvironment } from '../platform/auth/environments';
export { DEPLOYMENT_ENVIRONMENTS, type DeploymentEnvironment } from '../platform/auth/environments';

export const REGIONS = ['us', 'uk', 'eu', 'studio'] as const;
export type Region = (typeof REGIONS)[number];

export const CONNECTOR_KINDS = ['messaging', 'sms'] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

/** SMS connectors and phone numbers name environments the carrier way; contract §11 maps them. */
export const NUMBER_ENVIRONMENTS = ['dev', 'sandbox', 'live'] as const;
export type NumberEnvironment = (typeof NUMBER_ENVIRONMENTS)[number];
/** A number answers as the agent's own (`main`) or waits in its DNI pool for reservations (contract §18). */
export const NUMBER_POOLS = ['main', 'dni'] as const;
export type NumberPool = (typeof NUMBER_POOLS)[number];

export const DEPLOYMENT_FOR_NUMBER_ENVIRONMENT: Record<NumberEnvironment, DeploymentEnvironment> = {
  dev: 'sandbox',
  sandbox: 'pre-release',
  live: 'live',
};
