import { Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import type { EndReason } from '../conversations/conversation.events';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { RecordedEvent } from '../event-store/event-store.port';
import { DomainError } from '../platform/errors/domain-error';
import type { HungUpBy, QueuedCall } from './outbound-call.events';

/**
 * The call channel's adapter over the conversation engine (contract §10): the conversation's id is
 * the call_sid, channel VOICE-SIP, the call's metadata in its state, the agent's greeting as its
 * first turn. Started when the callee answers and ended when the call ends; both are driven by
 * call events, so they are keyed by those events' ids and a replay after a crash appends nothing twice.
 */
@Injectable()
export class CallConversations {
  constructor(private readonly engine: ConversationEngine) {}

  async start(call: QueuedCall, answeredAt: string, cause: RecordedEvent): Promise<void> {
    try {
      await this.engine.start(
        {
          conversationId: call.callSid,
          agentId: call.agentId,
          deploymentId: call.deploymentId,
          environment: call.environment as Environment,
          channel: 'VOICE-SIP',
          // the party the agent talks to, as in every channel; the agent's own number is the caller id
          callerNumber: call.toNumber,
          agentNumber: call.fromNumber,
          fromNumber: call.fromNumber,
          toNumber: call.toNumber,
          attributes: call.metadata,
          startedAt: answeredAt,
        },
        this.context(call, cause),
      );
    } catch (error) {
      // the agent was deleted while the phone rang: the call connects to no one
      if (error instanceof DomainError && error.status === 404) return;
      // a replay of the same answer: the conversation is already there
      if (error instanceof DomainError && error.code === 'CONVERSATION_EXISTS') return;
      throw error;
    }
  }

  async end(call: QueuedCall, hungUpBy: HungUpBy, endedAt: string, cause: RecordedEvent): Promise<void> {
    const reason: EndReason = hungUpBy === 'callee' ? 'user' : hungUpBy === 'agent' ? 'agent' : 'crash';
    await this.engine.end(call.callSid, reason, this.context(call, cause), endedAt);
  }

  private context(call: QueuedCall, cause: RecordedEvent) {
    return {
      actor: 'system:outbound-calls',
      correlationId: call.callSid,
      causationId: cause.id,
      idempotencyKey: `outbound-calls:${cause.id}`,
    };
  }
}
