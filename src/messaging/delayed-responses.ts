import { conversationStream, type TurnData } from '../conversations/conversation.events';
import type { RecordedEvent } from '../event-store/event-store.port';
import { Injectable } from '@nestjs/common';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { AgentTurns } from './agent-turns';

const WEBCHAT_CONVERSATION = conversationStream('WEBCHAT-');

/**
 * Pushes the service agent's answers to external events (delayed responses, made by
 * external-events.process-manager.ts) to the web chat session the conversation runs on: the
 * session stream records the message, so every socket of the session, on any process, and every
 * later replay sees it (agent-turns.ts `pushDelayed`). Only web chat conversations' delayed turns
 * reach it; one conversation's in log order.
 */
function delayedResponsesProcessManager(turns: AgentTurns): ProcessManager {
  return {
    name: 'messaging-delayed-responses',
    wants: (event: RecordedEvent) =>
      event.streamId.startsWith(WEBCHAT_CONVERSATION) && (event.data as TurnData).delayedResponse,
    partitionBy: (event: RecordedEvent) => event.streamId,
    handles: { TurnRecorded: (event: RecordedEvent<TurnData>) => turns.pushDelayed(event) },
  };
}

/** The delayed responses' process manager, run behind the log. */
@Injectable()
@RunsBehindTheLog()
export class DelayedResponses implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];

  constructor(turns: AgentTurns) {
    this.processManagers = [delayedResponsesProcessManager(turns)];
  }
}
