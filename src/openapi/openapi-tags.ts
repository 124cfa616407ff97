/** The API families (docs/api/README.md), one tag each, in the order the reference shows them. */
export const TAGS = [
  { name: 'operator', description: 'Operator API: accounts, keys, connectors, phone numbers (`x-operator-token`)' },
  { name: 'accounts-and-keys', description: 'API keys and data access (keys with `keys`)' },
  { name: 'agents', description: 'Agents, branches, behavior, topics, merge (`agents`)' },
  { name: 'deployments', description: 'Deployments: list, active, promote, roll back (`agents`)' },
  { name: 'debug-chat', description: 'Debug chat against a branch or environment (`agents`)' },
  { name: 'chat', description: 'Chat API: server-to-server chat with a deployment (`chat`)' },
  { name: 'conversations', description: 'Conversations API v1, v2, v3 and audit events (`conversations`)' },
  {
    name: 'analytics',
    description: 'Analytics: volume, outcomes, latency, topics and unanswered inputs over time (`conversations`)',
  },
  {
    name: 'handoff-and-external-events',
    description: 'Handoff state (`handoff`) and external events (`external_events`)',
  },
  { name: 'outbound-calls', description: 'Outbound calls (`outbound_calling`, `X-Service-Auth-Token`)' },
  { name: 'sms', description: 'SMS: outbound (`sms`, `X-Service-Auth-Token`) and the signed carrier webhook' },
  {
    name: 'inbound-calls',
    description: 'Inbound calls on the embedded carrier (operator) and DNI reservations (`dni`)',
  },
  { name: 'concurrency', description: 'Concurrent calls (`conversations`) and the account limit (operator sets it)' },
  { name: 'alerts', description: 'Alert rules and firing alerts (`alerts`)' },
  { name: 'webhook-endpoints', description: 'Webhook endpoints and their deliveries (`alerts`, `agents: "all"`)' },
  { name: 'agent-tests', description: 'Agent test cases on a branch, and the test runs of deployments (`agents`)' },
  { name: 'agent-tools', description: "Agent tools on a branch and the agent's tool secret (`agents`)" },
  {
    name: 'audit-export',
    description: "A project's audit trail as NDJSON, one event a line (`conversations`)",
  },
  { name: 'messaging', description: 'Web chat: access tokens and sessions (connector token, then bearer)' },
  { name: 'platform', description: 'Health, readiness, metrics, the test clock' },
  { name: 'reference', description: 'This document and its browsable form' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];
