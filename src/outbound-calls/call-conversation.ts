import { Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import type { EndReason } from '../conversations/conversation.events';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { RecordedEvent } from '../event-store/event-store.port';
import { DomainError } from '../platform/errors/domain-error';
import type { FailureReason, HungUpBy, QueuedCall } from './outbound-call.events';

/**
 * The call channel's adapter over the conversation engine (contract §10): the conversation's id is
 * the call_sid, channel VOICE-SIP, the call's metadata in its state, the agent's greeting as its
 * first turn. Started when the callee answers and ended when the call ends (a call that never
 * connected is recorded started and ended at once, without a greeting); all are driven by
 * call events, so they are keyed by those events' ids and a replay after a crash appends nothing twice.
 */
@Injectable()
export class CallConversations {
  constructor(private readonly engine: ConversationEngine) {}

  async start(call: QueuedCall, answeredAt: string, cause: RecordedEvent): Promise<void> {
    await this.once(() => this.engine.start(this.opening(call, answeredAt), this.context(call, cause)));
  }

  /**
   * A call that failed before the callee answered (busy, no answer, the watchdog): its sid was
   * handed out, so it is still a conversation (contract §2), from the moment it was queued to the
   * failure, with no greeting since no one heard one and the failure's reason in its state.
   */
  async notConnected(call: QueuedCall, reason: FailureReason | null, endedAt: string, cause: RecordedEvent) {
    const outcome = { callStatus: 'failure', failureReason: reason ?? 'error' };
    const request = { ...this.opening(call, call.queuedAt), accountId: call.accountId, endedAt, outcome };
    await this.once(() => this.engine.recordNotConnected(request, this.context(call, cause)));
  }

  async end(call: QueuedCall, hungUpBy: HungUpBy, endedAt: string, cause: RecordedEvent): Promise<void> {
    const reason: EndReason = hungUpBy === 'callee' ? 'user' : hungUpBy === 'agent' ? 'agent' : 'crash';
    await this.engine.end(call.callSid, reason, this.context(call, cause), endedAt);
  }

  private opening(call: QueuedCall, startedAt: string) {
    return {
      conversationId: call.callSid,
      agentId: call.agentId,
      deploymentId: call.deploymentId,
      environment: call.environment as Environment,
      channel: 'VOICE-SIP' as const,
      // the party the agent talks to, as in every channel; the agent's own number is the caller id
      callerNumber: call.toNumber,
      agentNumber: call.fromNumber,
      fromNumber: call.fromNumber,
      toNumber: call.toNumber,
      attributes: call.metadata,
      startedAt,
    };
  }

  private async once(record: () => Promise<unknown>): Promise<void> {
    try {
      await record();
    } catch (error) {
      // the agent was deleted while the phone rang: the call connects to no one
      if (error instanceof DomainError && error.status === 404) return;
      // a replay of the same call event: the conversation is already there
      if (error instanceof DomainError && error.code === 'CONVERSATION_EXISTS') return;
      throw error;
    }
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
