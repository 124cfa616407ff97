import type { Permission } from './permissions';

export interface KeyRecord {
  id: string;
  accountId: string;
  name: string;
  agents: 'all' | string[];
  permissions: Permission[];
  expiresAt: string;
  expiresAtMs: number;
  keyDigest: string;
  last4: string;
  deletedAt: string | null;
}

export function keyCanReachAgent(key: Pick<KeyRecord, 'agents'>, agentId: string): boolean {
  return key.agents === 'all' || key.agents.includes(agentId);
}
