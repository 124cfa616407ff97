import type { BenchCase } from '../lib/case';
import { agentsCases } from './agents-build';
import { alertsCases } from './alerts';
import { analyticsCases } from './analytics';
import { catchUpCases } from './catch-up';
import { ceilingCases } from './ceiling';
import { concurrencyCases } from './concurrency';
import { conversationsCases } from './conversations';
import { debugChatCases } from './debug-chat';
import { debugChatCostCases } from './debug-chat-cost';
import { debugChatPrivacyCases } from './debug-chat-privacy';
import { sealingCases } from './sealing';
import { sealingApiCases } from './sealing-api';
import { edgeFloodBodyCases } from './edge-flood-body';
import { edgeFloodConnectionsCases } from './edge-flood-connections';
import { externalEventsCases } from './external-events';
import { httpAuthCases } from './http-auth';
import { inboundCallsCases } from './inbound-calls';
import { messagingCases } from './messaging';
import { peerCases } from './peer';
import { postgresCases } from './postgres';
import { postgresDebugChatCases } from './postgres-debug-chat';
import { postgresStoreCases } from './postgres-store';
import { postgresCatchUpCases } from './postgres-catch-up';
import { postgresFailoverCases } from './postgres-failover';
import { projectionCases } from './projection-rebuild';
import { retrievalCases } from './retrieval';
import { retrievalHybridCases } from './retrieval-hybrid';
import { storeAppendCases } from './store-append';
import { storeReadCases } from './store-read';
import { studioCases } from './studio';
import { voiceCases } from './voice';

/**
 * Every case, in the order they run, in groups. A group runs in a process of its own (run.ts):
 * the heap one group leaves behind (a 1M-event log, 2 GB of messaging sessions) must not tax the
 * next one's garbage collector. Cases of a group share fixtures (BenchContext.shared).
 * A new case group is one file in this folder exporting BenchCase[], added here; a new target is
 * one line in ../targets.ts. Each store case runs right after the ceiling it is compared with, so
 * both see similar noise.
 */
export const CASE_GROUPS: Array<{ name: string; cases: BenchCase[]; backend?: 'postgres' }> = [
  {
    name: 'foundation',
    cases: [
      ...ceilingCases.filter((c) => c.name.startsWith('ceiling.append')),
      ...storeAppendCases,
      ...peerCases,
      ...ceilingCases.filter((c) => c.name.startsWith('ceiling.scan')),
      ...storeReadCases,
      ...projectionCases,
    ],
  },
  { name: 'http', cases: httpAuthCases },
  { name: 'agents', cases: agentsCases },
  { name: 'retrieval', cases: [...retrievalCases, ...retrievalHybridCases] },
  {
    name: 'debug-chat',
    cases: [...debugChatCases, ...debugChatCostCases, ...debugChatPrivacyCases, ...sealingCases, ...sealingApiCases],
  },
  { name: 'messaging', cases: messagingCases },
  { name: 'inbound-calls', cases: inboundCallsCases },
  // concurrent SIP calls with audio (issue 36): real-time audio, so its length is the calls', not the machine's
  { name: 'voice', cases: voiceCases },
  { name: 'conversations', cases: conversationsCases },
  // Studio's conversations page in headless Chromium, over the same seeded dataset
  { name: 'studio', cases: studioCases },
  // after conversations: it reads the same seeded log (bench/data/), which that group seeds once
  { name: 'catch-up', cases: catchUpCases },
  // the Analytics API over the same seeded log (its read model built there the first time)
  { name: 'analytics', cases: analyticsCases },
  // the concurrency series over the same seeded log (and its read model, built there the first time)
  { name: 'concurrency', cases: concurrencyCases },
  { name: 'alerts', cases: alertsCases },
  { name: 'external-events', cases: externalEventsCases },
  // issue 47's floods against the app in a server process of its own (contract §21)
  { name: 'edge', cases: [...edgeFloodBodyCases, ...edgeFloodConnectionsCases] },
  // only with --backend postgres (which --only postgres implies): one PostgreSQL server for them all
  {
    name: 'postgres',
    cases: [...postgresStoreCases, ...postgresDebugChatCases, ...postgresCases],
    backend: 'postgres',
  },
  // issue 48: the rebuild and the catch-up with the log in PostgreSQL beside the SQLite log; they
  // start their own server, so they run without --backend (the catch-up reads the conversations' dataset)
  { name: 'postgres-log', cases: postgresCatchUpCases },
  // issue 48: SIGKILL of the process holding the leases, two processes on one PostgreSQL
  { name: 'postgres-failover', cases: postgresFailoverCases },
];
