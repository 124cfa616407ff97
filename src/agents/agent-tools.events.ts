import type { DomainEvent } from '../commands/decider';

/**
 * A tool's custom headers (they often hold the customer's API token): the JSON object sealed with
 * the server secret, and a keyed digest of that JSON so a merge can compare two versions without
 * opening them. Neither reveals a value to someone who reads the log (contract §20: write-only).
 */
export interface SealedToolHeaders {
  sealed: string;
  digest: string;
}

/** The content fields of an agent tool (contract §20); its identity on a branch is `id`, across a merge `name`. */
export interface ToolContent {
  name: string;
  description: string;
  url: string;
  method: 'POST';
  /** a JSON Schema object describing the arguments */
  parameters: Record<string, unknown>;
  headers: SealedToolHeaders;
  timeoutMs: number;
}

export interface Tool extends ToolContent {
  id: string;
}

/** The agent's tool secret, sealed with the server secret (calls need it back to sign), and its last four for masked reads. */
export interface SealedToolSecret {
  sealedSecret: string;
  secretLast4: string;
}

export type AgentToolEvent =
  | DomainEvent<'ToolAdded', { agentId: string; branchId: string; tool: Tool; addedAt: string }>
  | DomainEvent<'ToolEdited', { agentId: string; branchId: string; tool: Tool; editedAt: string }>
  | DomainEvent<'ToolRemoved', { agentId: string; branchId: string; toolId: string; name: string; removedAt: string }>
  /** The first tool creates the secret; a rotation replaces it. */
  | DomainEvent<'ToolSecretIssued', SealedToolSecret & { agentId: string; rotated: boolean; issuedAt: string }>;
