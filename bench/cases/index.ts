import type { BenchCase } from '../lib/case';
import { agentsCases } from './agents-build';
import { alertsCases } from './alerts';
import { ceilingCases } from './ceiling';
import { conversationsCases } from './conversations';
import { debugChatCases } from './debug-chat';
import { externalEventsCases } from './external-events';
import { httpAuthCases } from './http-auth';
import { messagingCases } from './messaging';
import { peerCases } from './peer';
import { projectionCases } from './projection-rebuild';
import { retrievalCases } from './retrieval';
import { storeAppendCases } from './store-append';
import { storeReadCases } from './store-read';

/**
 * Every case, in the order they run. A new case group is one file in this folder exporting
 * BenchCase[], added here; a new target is one line in ../targets.ts.
 * Each store case runs right after the ceiling it is compared with, so both see similar noise.
 */
export const ALL_CASES: BenchCase[] = [
  ...ceilingCases.filter((c) => c.name.startsWith('ceiling.append')),
  ...storeAppendCases,
  ...peerCases,
  ...ceilingCases.filter((c) => c.name.startsWith('ceiling.scan')),
  ...storeReadCases,
  ...projectionCases,
  ...httpAuthCases,
  ...agentsCases,
  ...retrievalCases,
  ...debugChatCases,
  ...messagingCases,
  ...conversationsCases,
  ...alertsCases,
  ...externalEventsCases,
];
