import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '../../agents/agent.events';
import type { ServedContent } from '../../agents/deployment-content';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { eventTurn } from '../../external-events/event-turn';
import { ManualClock } from '../../platform/clock/clock';
import { IdGenerator } from '../../platform/ids/ids';
import { Commands } from '../../commands/commands';
import { AgentRuntime } from '../../runtime/agent-runtime';
import {
  ConversationEndedError,
  ConversationEnvironmentError,
  ConversationIdleError,
  ConversationNotFoundError,
} from '../conversation-errors';
import { conversationStream } from '../conversation.events';
import type { Answers } from './answers';
import { ConversationEngine, NoActiveDeploymentError, type ContentSource } from './conversation-engine';

const content: ServedContent = {
  agentId: 'agent-1',
  accountId: 'acct-1',
  deploymentId: 'dep-1',
  environment: 'sandbox',
  version: 3,
  greeting: 'Hello! How can I help?',
  languageCode: 'en-GB',
  behavior: 'Be helpful.',
  topics: [
    {
      id: 't1',
      name: 'Opening hours',
      content: 'We open at nine.',
      exampleQueries: ['when do you open', 'opening hours'],
      actions: 'set_state key=asked value=hours',
      isActive: true,
    },
    {
      id: 't2',
      name: 'Refund',
      content: 'Hold on while I check.',
      exampleQueries: ['refund my order', 'i want a refund'],
      actions: 'await_external_event name=refund_check',
      isActive: true,
    },
    {
      id: 't3',
      name: 'event:refund_check',
      content: 'Your refund is $state.external_events.refund_check.status.',
      exampleQueries: [],
      actions: '',
      isActive: true,
    },
  ],
};

/** The deployments read model's answers for one agent (the engine reads only these two things of it). */
class OneDeployment implements ContentSource {
  active: string | null = 'dep-1';
  async activeDeploymentId(agentId: string, environment: Environment) {
    return agentId === content.agentId && environment === 'sandbox' ? this.active : null;
  }
  async ofDeployment(agentId: string, deploymentId: string) {
    if (agentId !== content.agentId || deploymentId !== content.deploymentId) throw new Error('unknown deployment');
    return content;
  }
}

describe('ConversationEngine on a real SQLite log', () => {
  let dir: string;
  let store: SqliteEventStore;
  let engine: ConversationEngine;
  let deployments: OneDeployment;
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const context = { actor: 'test', correlationId: 'c1' };
  let n = 0;
  const ids = new (class extends IdGenerator {
    uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    short = () => String(++n);
  })();

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-engine-'));
    store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    deployments = new OneDeployment();
    engine = new ConversationEngine(new Commands(store, clock), clock, ids, deployments, new AgentRuntime(null));
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const types = async (id: string) => (await store.readStream(conversationStream(id))).map((e) => e.type);

  it('starts on the active deployment with the greeting and the same state keys on every channel', async () => {
    const started = await engine.start(
      {
        conversationId: 'SMS-1',
        agentId: 'agent-1',
        environment: 'sandbox',
        channel: 'SMS',
        callerNumber: '+15550001',
        agentNumber: '+15550100',
        fromNumber: '+15550001',
        toNumber: '+15550100',
        attributes: { order: 'A7', channel: 'spoofed' },
      },
      context,
    );
    expect(started.greeting.agentResponse).toBe('Hello! How can I help?');
    expect(started.state.state).toEqual({
      order: 'A7',
      conversation_id: 'SMS-1',
      channel: 'SMS',
      environment: 'sandbox',
      caller_number: '+15550001',
      agent_number: '+15550100',
      language: 'en-GB',
    });
    const [startedEvent] = await store.readStream(conversationStream('SMS-1'));
    expect(startedEvent.data).toMatchObject({
      accountId: 'acct-1',
      deploymentId: 'dep-1',
      version: 3,
      channel: 'SMS',
      fromNumber: '+15550001',
      toNumber: '+15550100',
      startedAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await types('SMS-1')).toEqual(['ConversationStarted', 'StateChanged', 'TurnRecorded']);
  });

  it('refuses to start where no deployment is active, appending nothing', async () => {
    deployments.active = null;
    await expect(
      engine.start(
        { conversationId: 'AS_CHAT_1', agentId: 'agent-1', environment: 'sandbox', channel: 'CHAT' },
        context,
      ),
    ).rejects.toBeInstanceOf(NoActiveDeploymentError);
    expect(await types('AS_CHAT_1')).toEqual([]);
  });

  it('records a call that never connected: started and ended, no greeting, on the deployment or on none', async () => {
    const call = {
      agentId: 'agent-1',
      accountId: 'acct-1',
      environment: 'sandbox',
      channel: 'VOICE-SIP' as const,
      callerNumber: '+15005550002',
      agentNumber: '+15550100',
      startedAt: '2026-03-01T09:59:50.000Z',
      endedAt: '2026-03-01T10:00:00.000Z',
      outcome: { callStatus: 'failure', failureReason: 'busy' },
    };
    const busy = await engine.recordNotConnected({ ...call, conversationId: 'OUT-1' }, context);
    expect(busy).toMatchObject({ turns: 0, ended: 'not_connected', deploymentId: 'dep-1', language: 'en-GB' });
    expect(busy.state).toMatchObject({ channel: 'VOICE-SIP', call_status: 'failure', failure_reason: 'busy' });
    expect(await types('OUT-1')).toEqual(['ConversationStarted', 'StateChanged', 'ConversationEnded']);

    // refused because nothing is deployed: still recorded, naming no deployment
    deployments.active = null;
    const refused = await engine.recordNotConnected(
      { ...call, conversationId: 'IN-1', outcome: { callStatus: 'failed', failureReason: 'no-deployment' } },
      context,
    );
    expect(refused).toMatchObject({ accountId: 'acct-1', deploymentId: '', ended: 'not_connected', turns: 0 });
  });

  it('answers a turn from the retrieved topic and records what its actions did', async () => {
    await engine.start(
      { conversationId: 'AS_CHAT_2', agentId: 'agent-1', environment: 'sandbox', channel: 'CHAT' },
      context,
    );
    const { turn, state } = await engine.respond('AS_CHAT_2', { text: 'when do you open?' }, context);
    expect(turn.citedTopic).toBe('Opening hours');
    expect(turn.agentResponse).toBe('We open at nine.');
    expect(turn.asrLangCode).toBe('en-GB');
    expect(state.state.asked).toBe('hours');
    expect(state.turns).toBe(2);
    await expect(engine.respond('nope', { text: 'hi' }, context)).rejects.toMatchObject({
      code: 'CONVERSATIONS_NOT_FOUND',
    });
  });

  describe('one turn, as every request-driven channel asks for it', () => {
    const open = (conversationId: string) =>
      engine.start({ conversationId, agentId: 'agent-1', environment: 'sandbox', channel: 'CHAT' }, context);

    it('refuses with typed errors: another agent’s, another environment’s, an ended conversation', async () => {
      await open('AS_CHAT_T1');
      const turn = (over: object) =>
        engine.turn({ conversationId: 'AS_CHAT_T1', input: { text: 'opening hours' }, ...over }, context);
      await expect(turn({ agentId: 'agent-2' })).rejects.toBeInstanceOf(ConversationNotFoundError);
      await expect(turn({ conversationId: 'AS_CHAT_none' })).rejects.toBeInstanceOf(ConversationNotFoundError);
      await expect(turn({ environment: 'live' })).rejects.toBeInstanceOf(ConversationEnvironmentError);
      expect(await turn({ agentId: 'agent-1', environment: 'sandbox' })).toMatchObject({
        kind: 'answered',
        turn: { agentResponse: 'We open at nine.' },
      });
      await engine.close({ conversationId: 'AS_CHAT_T1' }, context);
      await expect(turn({})).rejects.toBeInstanceOf(ConversationEndedError);
      expect(await types('AS_CHAT_T1')).toEqual([
        'ConversationStarted',
        'StateChanged',
        'TurnRecorded',
        'TurnRecorded',
        'StateChanged',
        'ConversationEnded',
      ]);
    });

    it('ends a conversation idle past the limit as a timeout, and refuses the turn', async () => {
      await open('AS_CHAT_T2');
      clock.advance(61);
      await expect(
        engine.turn({ conversationId: 'AS_CHAT_T2', idleS: 60, input: { text: 'hello?' } }, context),
      ).rejects.toBeInstanceOf(ConversationIdleError);
      expect((await engine.current('AS_CHAT_T2')).ended).toBe('timeout');
      expect(await engine.end('AS_CHAT_none', 'user', context)).toBeNull();
    });

    it('runs the turns of one conversation one at a time, in arrival order', async () => {
      // An agent that takes a while (some turns of the event loop) and counts how many answer at once.
      const runtime = new AgentRuntime(null);
      let answering = 0;
      let most = 0;
      const slow: Answers = {
        greet: (served, input) => runtime.greet(served, input),
        stream: (served, input) => runtime.stream(served, input),
        respond: async (served, input, onChunk) => {
          most = Math.max(most, ++answering);
          for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
          answering--;
          return runtime.respond(served, input, onChunk);
        },
      };
      engine = new ConversationEngine(new Commands(store, clock), clock, ids, deployments, slow);
      await open('AS_CHAT_T3');
      const texts = ['opening hours', 'i want a refund', 'when do you open', 'refund my order'];
      const outcomes = await Promise.all(
        texts.map((text) => engine.turn({ conversationId: 'AS_CHAT_T3', input: { text } }, context)),
      );
      expect(most).toBe(1);
      const recorded = (await store.readStream(conversationStream('AS_CHAT_T3')))
        .filter((e) => e.type === 'TurnRecorded')
        .map((e) => (e.data as { userInput: string }).userInput);
      expect(recorded).toEqual(['', ...texts]);
      expect(outcomes.map((o) => o.state.turns)).toEqual([2, 3, 4, 5]);
    });

    it('records the channel’s own events beside the turn, only once the agent has answered', async () => {
      await open('AS_CHAT_T4');
      const seen: string[] = [];
      await engine.turn(
        {
          conversationId: 'AS_CHAT_T4',
          input: { text: 'opening hours' },
          alongside: async (result) => void seen.push(result.turn.agentResponse),
        },
        context,
      );
      expect(seen).toEqual(['We open at nine.']);
    });
  });

  it("opens a conversation with the user's first message answered (no greeting)", async () => {
    const request = {
      conversationId: 'SMS-2',
      agentId: 'agent-1',
      deploymentId: 'dep-1',
      environment: 'sandbox',
      channel: 'SMS' as const,
      callerNumber: '+15550002',
      agentNumber: '+15550100',
    };
    const result = await engine.startWithTurn(
      request,
      { text: 'opening hours', metadata: { provider_message_id: 'm1' } },
      context,
    );
    expect(result.turn.agentResponse).toBe('We open at nine.');
    expect(await types('SMS-2')).toEqual(['ConversationStarted', 'StateChanged', 'TurnRecorded', 'StateChanged']);
    const recorded = (await store.readStream(conversationStream('SMS-2')))[2];
    expect(recorded.data).toMatchObject({
      turnIndex: 0,
      userInput: 'opening hours',
      inputMetadata: { provider_message_id: 'm1' },
    });
  });

  it("binds an awaited external event once, with the agent's delayed response, and acknowledges its delivery", async () => {
    await engine.start(
      { conversationId: 'AS_CHAT_3', agentId: 'agent-1', environment: 'sandbox', channel: 'CHAT' },
      context,
    );
    await engine.respond('AS_CHAT_3', { text: 'i want a refund' }, context);
    const [eventId] = Object.keys((await engine.current('AS_CHAT_3')).awaiting);
    const event = {
      eventId,
      name: 'refund_check',
      contentType: 'application/json',
      body: '',
      receivedAt: clock.nowIso(),
    };
    const respond = (served: ServedContent, state: Record<string, unknown>, language: string) =>
      eventTurn({
        name: 'refund_check',
        topics: served.topics,
        state,
        receivedAt: event.receivedAt,
        language,
        newId: ids.uuid,
      });
    expect(
      await engine.receiveExternalEvent('AS_CHAT_3', event, () => ({ status: 'approved' }), respond, context),
    ).toBe(true);
    expect(
      await engine.receiveExternalEvent('AS_CHAT_3', event, () => ({ status: 'approved' }), respond, context),
    ).toBe(false);
    const bound = await engine.peek('AS_CHAT_3');
    expect(bound.pendingDelayed.map((t) => t.agentResponse)).toEqual(['Your refund is approved.']);
    await engine.acknowledgeDelayed('AS_CHAT_3', bound.pendingDelayed[0].turnIndex, context);
    expect((await engine.peek('AS_CHAT_3')).pendingDelayed).toEqual([]);
  });

  it("says a channel's own line as an agent turn, and ends once (never-started conversations are left alone)", async () => {
    await engine.start(
      {
        conversationId: 'SMS-3',
        agentId: 'agent-1',
        environment: 'sandbox',
        channel: 'SMS',
        line: { text: 'Your order shipped.', node: 'sms_outbound' },
      },
      context,
    );
    await engine.say('SMS-3', { text: 'Still there?', node: 'sms_idle_warning' }, clock.nowIso(), context);
    const turns = (await store.readStream(conversationStream('SMS-3')))
      .filter((e) => e.type === 'TurnRecorded')
      .map((e) => e.data as { agentResponse: string; currentNode: string });
    expect(turns.map((t) => [t.agentResponse, t.currentNode])).toEqual([
      ['Your order shipped.', 'sms_outbound'],
      ['Still there?', 'sms_idle_warning'],
    ]);
    expect((await engine.end('SMS-3', 'timeout', context))?.ended).toBe('timeout');
    expect((await engine.end('SMS-3', 'user', context))?.ended).toBe('timeout');
    expect(await engine.end('never', 'user', context)).toBeNull();
    await engine.say('SMS-3', { text: 'too late', node: 'sms_idle_warning' }, clock.nowIso(), context);
    expect((await types('SMS-3')).filter((t) => t === 'TurnRecorded')).toHaveLength(2);
  });
});
