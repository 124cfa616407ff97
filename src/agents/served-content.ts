import type { Environment, Topic } from './agent.events';
import type { Tool } from './agent-tools.events';
import type { RuntimeSettings } from './runtime-settings';

/** Everything a conversation needs from the deployment it runs on. */
export interface ServedContent {
  agentId: string;
  accountId: string;
  deploymentId: string;
  environment: Environment;
  version: number;
  greeting: string;
  languageCode: string;
  behavior: string;
  topics: Topic[];
  /** agent tools main had at the deployment's version (contract §20; headers sealed); absent: none */
  tools?: Tool[];
  /** the runtime settings of main at the deployment's sequence: only the fields set (the runtime fills the defaults) */
  settings?: RuntimeSettings;
  /** draft chat (contract §26): the branch served as it is now, and its content version */
  draft?: { branchId: string; version: number };
}
