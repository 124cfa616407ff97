import type { DeploymentContent } from '../agents/deployment-content';
import { conversationDecider } from '../conversations/conversation.decider';
import { conversationStream, type EndReason } from '../conversations/conversation.events';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import { handleCommand } from '../platform/commands/command-handler';
import { DomainError } from '../platform/errors/domain-error';
import type { IdGenerator } from '../platform/ids/ids';
import type { AgentRuntime } from '../runtime/agent-runtime';
import type { HungUpBy, QueuedCall } from './outbound-call.events';

/**
 * The conversation a connected call is (contract §10): id = call_sid, channel VOICE-SIP, the
 * call's metadata in its state, the agent's greeting as its first turn. Started when the callee
 * answers and ended when the call ends; both are driven by call events, so they are keyed by those
 * events' ids and a replay after a crash appends nothing twice.
 */
export class CallConversations {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly deployments: DeploymentContent,
    private readonly runtime: AgentRuntime,
  ) {}

  async start(call: QueuedCall, answeredAt: string, cause: RecordedEvent): Promise<void> {
    let content;
    try {
      content = await this.deployments.ofDeployment(call.agentId, call.deploymentId);
    } catch (error) {
      // the agent was deleted while the phone rang: the call connects to no one
      if (error instanceof DomainError && error.status === 404) return;
      throw error;
    }
    const conversationId = call.callSid;
    // metadata first: the built-in keys are the platform's and always win (the DTO refuses clashes anyway)
    const initialState = {
      ...call.metadata,
      conversation_id: conversationId,
      channel: 'VOICE-SIP',
      environment: call.environment,
      // the party the agent talks to, as in every channel; the agent's own number is the caller id
      caller_number: call.toNumber,
      agent_number: call.fromNumber,
      language: content.languageCode,
    };
    const greeting = this.runtime.greet(content, { state: initialState, asrLangCode: content.languageCode, ttsLangCode: content.languageCode, receivedAt: answeredAt, newId: () => this.ids.uuid() });
    const started = {
      conversationId,
      accountId: call.accountId,
      agentId: call.agentId,
      deploymentId: call.deploymentId,
      version: content.version,
      environment: call.environment,
      channel: 'VOICE-SIP' as const,
      fromNumber: call.fromNumber,
      toNumber: call.toNumber,
      variantId: '',
      variantName: '',
      language: content.languageCode,
      startedAt: answeredAt,
    };
    try {
      await handleCommand(this.store, this.clock, conversationStream(conversationId), conversationDecider, { type: 'StartConversation', started, initialState, greeting: greeting.turn }, this.context(call, cause));
    } catch (error) {
      // a replay of the same answer: the conversation is already there
      if (error instanceof DomainError && error.code === 'CONVERSATION_EXISTS') return;
      throw error;
    }
  }

  async end(call: QueuedCall, hungUpBy: HungUpBy, endedAt: string, cause: RecordedEvent): Promise<void> {
    const reason: EndReason = hungUpBy === 'callee' ? 'user' : hungUpBy === 'agent' ? 'agent' : 'crash';
    const [first] = await this.store.readStream(conversationStream(call.callSid), { maxCount: 1 });
    if (!first) return;
    await handleCommand(this.store, this.clock, conversationStream(call.callSid), conversationDecider, { type: 'EndConversation', reason, now: endedAt }, this.context(call, cause));
  }

  private context(call: QueuedCall, cause: RecordedEvent) {
    return { actor: 'system:outbound-calls', correlationId: call.callSid, causationId: cause.id, idempotencyKey: `outbound-calls:${cause.id}` };
  }
}
