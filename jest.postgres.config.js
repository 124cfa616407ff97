/**
 * CI's second pass (`npm run test:postgres`): the suites about what the read models and platform
 * records hold, again with READ_MODEL_DB=postgres. Every app those tests start keeps its read
 * models and platform records in a PostgreSQL database of its own on one shared server
 * (test/helpers/app-database.ts); the event log stays in DATA_DIR/events.sqlite.
 *
 * The PostgreSQL code itself is tested in the first pass too, on servers those suites start
 * themselves: its projections, search, leases, runner and verify
 * (src/read-models/generations/postgres-*, test/read-models/postgres-lease,
 * test/conversations-api/postgres-search), the platform database (test/platform/postgres-platform)
 * and two API processes killed mid-traffic on one PostgreSQL (test/scale-out/two-processes). So this
 * pass chooses the end-to-end suites whose subject is stored data, read back through the API: each
 * read model's queries (listings, cursors, filters, streaming, audit replay), the platform records
 * (accounts, keys, idempotency, timers, webhook outbox, alert samples) and what a restart finds.
 * The suites about a protocol or a channel (auth styles, sockets, the model, carriers, error
 * envelopes) run once, in the first pass: where the rows live is not their subject, and on a slow
 * CI machine both passes must fit in its 90 minutes (the last run that took every suite that starts
 * an app, 42 files, was stopped there 17 files into this pass).
 */
const fs = require('node:fs');
const path = require('node:path');
const base = require('./jest.config');

const ON_POSTGRES = [
  // platform records
  'test/accounts.e2e.spec.ts',
  'test/operator-lists.e2e.spec.ts',
  'test/api-keys.e2e.spec.ts',
  'test/app-database.e2e.spec.ts',
  // agents, branches and deployments
  'test/agents.e2e.spec.ts',
  'test/deployments.e2e.spec.ts',
  // the conversations read model: listings, filters, cursors, streaming, data access, audit replay, analysis
  'test/conversations-api.e2e.spec.ts',
  'test/conversations-streaming.e2e.spec.ts',
  'test/data-access.e2e.spec.ts',
  'test/handoff-audit.e2e.spec.ts',
  // the analytics read model: its buckets, topics and unanswered inputs, and a rebuild of them
  'test/analytics/analytics.e2e.spec.ts',
  // erasure: the key store and the scrubbed read models in PostgreSQL
  'test/erasure/erasure.e2e.spec.ts',
  'test/erasure/channel-erasure.e2e.spec.ts',
  'test/analysis/post-call-analysis.e2e.spec.ts',
  // outbox, timers and samples the platform database claims and keeps
  'test/webhooks/webhook-deliveries.e2e.spec.ts',
  'test/webhooks/webhook-restart.int.spec.ts',
  'test/alert-evaluation.e2e.spec.ts',
  'test/sms/sms-sessions.e2e.spec.ts',
  // the channels' own records: sessions, bindings, calls
  'test/messaging/http-api.e2e.spec.ts',
  'test/external-events/external-events.e2e.spec.ts',
  'test/outbound-calls/outbound-calls.e2e.spec.ts',
  // dead letters in the platform database, a poison event skipped by a PostgreSQL read model
  'test/read-models/dead-letters.e2e.spec.ts',
  'test/read-models/dead-letters-timers.e2e.spec.ts',
];

// a renamed or removed file must not quietly leave the pass
for (const spec of ON_POSTGRES) {
  if (!fs.existsSync(path.join(__dirname, spec)))
    throw new Error(`jest.postgres.config.js names ${spec}, which does not exist`);
}

module.exports = {
  ...base,
  testMatch: ON_POSTGRES.map((spec) => `<rootDir>/${spec}`),
};
