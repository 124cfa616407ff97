import type { Logger } from 'pino';
import type { ConversationState } from '../conversations/conversation.decider';
import { conversationStream, type ConversationEvent, type TurnData } from '../conversations/conversation.events';
import type { ConversationEngine, StartRequest } from '../conversations/engine/conversation-engine';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { derivedUuid } from '../platform/ids/derived-id';
import type { OutgoingSms } from './sms-carrier.port';
import type { SmsOutbox } from './sms-outbox';
import type { SmsSessionTimers } from './sms-session-timers';
import { smsSessionStream, type SmsRoute, type SmsSessionEvent } from './sms-session.decider';
import type { SmsSessionCommands } from './sms-session-commands';

type Of<T extends SmsSessionEvent['type']> = RecordedEvent<Extract<SmsSessionEvent, { type: T }>['data']>;
type Opened = Extract<SmsSessionEvent, { type: 'SmsSessionOpened' }>['data'];

export interface SmsConversationsDeps {
  store: EventStore;
  clock: Clock;
  /** the session streams' one handler, shared with the SMS API and the timers */
  sessions: SmsSessionCommands;
  engine: ConversationEngine;
  outbox: SmsOutbox;
  timers: SmsSessionTimers;
  newId: () => string;
  logger: Logger;
}

/**
 * What an SMS session's events mean for its conversation (`conversation-SMS-<uuid>`, channel
 * `SMS`): the outbound greeting starts it, each user message is answered by the agent runtime as a
 * turn, the idle warning is an agent turn, the session's end ends it; every agent text goes out
 * through the outbox. Each step's appends are keyed by the triggering event, and a step first
 * looks for what it already wrote, so a replay after a crash repeats nothing.
 */
export class SmsConversations {
  constructor(private readonly d: SmsConversationsDeps) {}

  async opened(event: Of<'SmsSessionOpened'>): Promise<void> {
    const { data } = event;
    // an inbound session starts with the user's message, answered in userMessage()
    if (data.by !== 'outbound' || data.greeting === null) return;
    const key = `sms:${event.id}`;
    const state = await this.d.engine.current(data.conversationId);
    if (!state.exists)
      await this.d.engine.start(
        { ...this.opening(data), line: { text: data.greeting, node: 'sms_outbound' } },
        this.context(event, key),
      );
    await this.send(event, data.conversationId, data.agentNumber, data.userNumber, [data.greeting]);
  }

  async userMessage(event: Of<'SmsUserMessageReceived'>): Promise<void> {
    const { data } = event;
    const session = (await this.d.sessions.load(event.streamId)).state;
    await this.d.timers.afterUserMessage(event.streamId, data.generation, data.receivedAt);
    const key = `sms:${event.id}`;
    let turn: Pick<TurnData, 'agentResponse' | 'functionEvents'> | null = await this.turnWrittenBy(
      data.conversationId,
      key,
    );
    if (!turn) {
      const state = await this.d.engine.current(data.conversationId);
      if (state.ended) {
        // ended meanwhile by something else (an external event's turn): its session goes too
        this.d.logger.warn({ conversationId: data.conversationId }, 'SMS for an ended conversation; not answered');
        await this.endSession(event, state);
        return;
      }
      const input = {
        text: data.text,
        metadata: { provider_message_id: data.providerMessageId },
        receivedAt: data.receivedAt,
      };
      if (state.exists) {
        const result = await this.d.engine.think(state, input);
        await this.d.engine.record(data.conversationId, result, this.context(event, key));
        turn = result.turn;
      } else {
        turn = (
          await this.d.engine.startWithTurn(
            this.opening(await this.openedBefore(event)),
            input,
            this.context(event, key),
          )
        ).turn;
      }
    }
    await this.send(event, data.conversationId, session.agentNumber, session.userNumber, textsOf(turn));
  }

  /**
   * The agent's answer to an external event (a delayed response, external-events.process-manager.ts)
   * is texted to the user like any answer; then the conversation records it as delivered.
   */
  async delayedTurn(event: RecordedEvent<TurnData>): Promise<void> {
    const conversationId = event.streamId.slice(conversationStream('').length);
    const state = await this.d.engine.current(conversationId);
    const { agent_number: agentNumber, caller_number: userNumber } = state.state;
    if (typeof agentNumber !== 'string' || typeof userNumber !== 'string' || !agentNumber || !userNumber) {
      this.d.logger.warn({ conversationId }, 'SMS conversation without its numbers; delayed response not texted');
      return;
    }
    await this.send(event, conversationId, agentNumber, userNumber, textsOf(event.data));
    await this.d.engine.acknowledgeDelayed(
      conversationId,
      event.data.turnIndex,
      this.context(event, `sms:delivered:${event.id}`),
    );
  }

  async warned(event: Of<'SmsIdleWarningSent'>): Promise<void> {
    const { data } = event;
    const session = (await this.d.sessions.load(event.streamId)).state;
    await this.d.timers.afterWarning(event.streamId, data.generation, data.sentAt);
    const key = `sms:${event.id}`;
    if (!(await this.turnWrittenBy(data.conversationId, key))) {
      const state = await this.d.engine.current(data.conversationId);
      if (!state.exists || state.ended) return;
      await this.d.engine.say(
        data.conversationId,
        { text: data.text, node: 'sms_idle_warning' },
        data.sentAt,
        this.context(event, key),
      );
    }
    await this.send(event, data.conversationId, session.agentNumber, session.userNumber, [data.text]);
  }

  async sessionEnded(event: Of<'SmsSessionEnded'>): Promise<void> {
    const { data } = event;
    const reason = data.reason === 'idle' ? 'timeout' : 'agent';
    await this.d.engine.end(data.conversationId, reason, this.context(event, `sms:${event.id}`), data.endedAt);
  }

  /** A conversation of this channel ended on its own (end_conversation, a handoff): its session ends too. */
  async conversationEnded(
    event: RecordedEvent<Extract<ConversationEvent, { type: 'ConversationEnded' }>['data']>,
  ): Promise<void> {
    const state = await this.d.engine.current(event.streamId.slice(conversationStream('').length));
    if (state.channel !== 'SMS') return;
    await this.endSession(event, state);
  }

  private async endSession(event: RecordedEvent, conversation: ConversationState): Promise<void> {
    const agentNumber = conversation.state.agent_number;
    const userNumber = conversation.state.caller_number;
    if (typeof agentNumber !== 'string' || typeof userNumber !== 'string' || !agentNumber || !userNumber) return;
    await this.d.sessions.handle(
      smsSessionStream(agentNumber, userNumber),
      { type: 'EndSession', conversationId: conversation.conversationId, now: this.d.clock.nowIso() },
      this.context(event, `sms:end:${event.id}`),
    );
  }

  private send(event: RecordedEvent, conversationId: string, from: string, to: string, texts: string[]) {
    const messages: OutgoingSms[] = texts
      .map((text, i) => ({ messageId: derivedUuid(`sms-out:${event.id}:${i}`), conversationId, from, to, text }))
      .filter((m) => m.text.trim().length > 0);
    return this.d.outbox.enqueue(event.id, messages);
  }

  /** The turn a command keyed `key` appended to the conversation, if it did (its event ids derive from the key). */
  private async turnWrittenBy(conversationId: string, key: string): Promise<TurnData | null> {
    const ids = new Set(Array.from({ length: 4 }, (_, i) => derivedUuid(`${key}#${i}`)));
    const events = await this.d.store.readStream(conversationStream(conversationId));
    const found = events.find((e) => ids.has(e.id) && e.type === 'TurnRecorded');
    return found ? (found.data as TurnData) : null;
  }

  /** The session opening an inbound message came with: appended just before it, in the same append. */
  private async openedBefore(event: RecordedEvent): Promise<Opened> {
    const [previous] = await this.d.store.readStream(event.streamId, {
      fromRevision: event.revision - 1n,
      maxCount: 1,
    });
    if (previous?.type !== 'SmsSessionOpened')
      throw new Error(`no session opening before ${event.streamId}@${event.revision}`);
    return previous.data as Opened;
  }

  /** How the session's conversation begins: the route's deployment, the user and agent numbers. */
  private opening(opened: Opened): StartRequest & { deploymentId: string } {
    const route: SmsRoute = opened.route;
    return {
      conversationId: opened.conversationId,
      agentId: route.agentId,
      deploymentId: route.deploymentId,
      environment: route.environment,
      channel: 'SMS',
      callerNumber: opened.userNumber,
      agentNumber: opened.agentNumber,
      fromNumber: opened.userNumber,
      toNumber: opened.agentNumber,
      startedAt: opened.openedAt,
    };
  }

  private context(event: RecordedEvent, key: string): CommandContext {
    return {
      actor: 'system:sms',
      correlationId: event.metadata.correlationId,
      causationId: event.id,
      idempotencyKey: key,
    };
  }
}

/** What a turn texts: the answer, then what the agent's send_sms actions added, in that order. */
function textsOf(turn: Pick<TurnData, 'agentResponse' | 'functionEvents'>): string[] {
  const extra = turn.functionEvents
    .filter((f) => f.name === 'send_sms' && f.status === 'ok' && f.args.text)
    .map((f) => f.args.text);
  return [turn.agentResponse, ...extra];
}
