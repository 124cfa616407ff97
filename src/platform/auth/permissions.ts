/**
 * What a key may do (contract §4): the vocabulary of the key guard (`RequireApiKey({ permission })`),
 * so it lives with the guard; accounts grants them. The first three are interface.md's:
 * Conversations data, Handoff, External events.
 */
export const PERMISSIONS = [
  'conversations',
  'handoff',
  'external_events',
  'agents',
  'alerts',
  'outbound_calling',
  'sms',
  'keys',
  'desk',
  'chat',
  'dni',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
