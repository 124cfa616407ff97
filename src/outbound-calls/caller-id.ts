import {
  DEPLOYMENT_FOR_NUMBER_ENVIRONMENT,
  NUMBER_ENVIRONMENTS,
  type DeploymentEnvironment,
  type NumberEnvironment,
} from '../accounts/permissions';
import { DomainError, forbidden } from '../platform/errors/domain-error';

export interface ProvisionedNumber {
  number: string;
  agentId: string;
  environment: string;
  provisionedAt: string;
}

export interface CallerId {
  number: string;
  agentId: string;
  /** the deployment environment that answers on this number (contract §11 mapping) */
  environment: DeploymentEnvironment;
}

/** Outbound calls mostly run in production: with no number named, `live` goes first. */
const PREFERENCE: readonly NumberEnvironment[] = ['live', 'sandbox', 'dev'];

/**
 * Which of the account's provisioned numbers places the call, and so which agent talks and from
 * which environment: the number the request names (it must be the account's, on an agent the key
 * reaches), or else the one number family the key reaches.
 */
export function chooseCallerId(
  numbers: ProvisionedNumber[],
  requested: string | undefined,
  reaches: (agentId: string) => boolean,
): CallerId {
  const usable = numbers.filter((n) => (NUMBER_ENVIRONMENTS as readonly string[]).includes(n.environment));
  if (requested !== undefined) {
    const found = usable.find((n) => n.number === requested);
    if (!found)
      throw new DomainError(
        'FROM_NUMBER_NOT_PROVISIONED',
        `from_number ${requested} is not a phone number provisioned for this account`,
        400,
      );
    if (!reaches(found.agentId))
      throw forbidden(`this key is not scoped to the agent of ${requested}`, 'AGENT_FORBIDDEN');
    return toCallerId(found);
  }
  const reachable = usable.filter((n) => reaches(n.agentId));
  if (reachable.length === 0) {
    throw new DomainError(
      'PHONE_NUMBER_NOT_FOUND',
      'no phone number is provisioned for an agent this key reaches; the operator provisions one per agent and environment',
      404,
    );
  }
  if (new Set(reachable.map((n) => n.agentId)).size > 1) {
    throw new DomainError(
      'FROM_NUMBER_REQUIRED',
      'this key reaches the numbers of several agents: name the caller with from_number',
      400,
    );
  }
  const ranked = [...reachable].sort(
    (a, b) =>
      PREFERENCE.indexOf(a.environment as NumberEnvironment) - PREFERENCE.indexOf(b.environment as NumberEnvironment) ||
      a.provisionedAt.localeCompare(b.provisionedAt) ||
      a.number.localeCompare(b.number),
  );
  return toCallerId(ranked[0]);
}

const toCallerId = (n: ProvisionedNumber): CallerId => ({
  number: n.number,
  agentId: n.agentId,
  environment: DEPLOYMENT_FOR_NUMBER_ENVIRONMENT[n.environment as NumberEnvironment],
});
