import type { ServedContent } from '../../agents/deployment-content';
import type { Channel, TurnData } from '../../conversations/conversation.events';
import type { ConversationCommand, TurnEffects } from '../../conversations/conversation.decider';
import { startCommand } from '../../conversations/engine/conversation-opening';
import type { AgentRuntime } from '../../runtime/agent-runtime';
import { CLOSINGS, DEMO_TOPICS, OFF_TOPIC } from './demo-knowledge';
import type { Prng } from './prng';

/** One command of a simulated conversation, with the time it happens at. */
export interface TimedCommand {
  at: number;
  command: ConversationCommand;
}

export interface SimulatedConversation {
  conversationId: string;
  commands: TimedCommand[];
}

export interface SimulationTarget {
  content: ServedContent;
  agentId: string;
  deploymentId: string;
  environment: string;
  agentNumber: string;
}

const ID_PREFIX: Record<Channel, string> = { CHAT: 'AS_CHAT_', WEBCHAT: 'WEBCHAT-', SMS: 'SMS-', 'VOICE-SIP': 'OUT-' };
const VARIANTS = [
  { id: 'control', name: 'Control' },
  { id: 'variant-b', name: 'Variant B' },
];

/** A user's wording: a topic's example, sometimes inflected or misspelt as people type and speak. */
function utterance(prng: Prng): string {
  let topic = prng.pick(DEMO_TOPICS);
  // most callers get their answer; asking for a person is the minority
  if (topic.actions?.includes('handoff') && prng.chance(0.7)) topic = prng.pick(DEMO_TOPICS);
  let text = prng.pick(topic.queries);
  if (prng.chance(0.15)) {
    const words = text.split(' ');
    const i = prng.int(0, words.length - 1);
    const w = words[i];
    if (w.length > 4) {
      const j = prng.int(1, w.length - 2);
      words[i] = w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
    }
    text = words.join(' ');
  } else if (prng.chance(0.1)) text = `${text} please`;
  return text;
}

/**
 * A realistic conversation, turn by turn through the real runtime: a channel and its timings
 * (voice answers in 0.6 to 2.5 s, chat faster), users asking the demo topics in their own words,
 * off-topic questions, silences, barge-ins, handoffs and ends. Nothing is appended here: the
 * seeder decides the commands with the conversation decider at their simulated times.
 */
export async function simulateConversation(
  prng: Prng,
  runtime: AgentRuntime,
  target: SimulationTarget,
  startMs: number,
  nowMs: number,
): Promise<SimulatedConversation> {
  const channel = prng.weighted<Channel>({ 'VOICE-SIP': 50, WEBCHAT: 25, CHAT: 15, SMS: 10 });
  const voice = channel === 'VOICE-SIP';
  const conversationId = `${ID_PREFIX[channel]}${prng.uuid()}`;
  const phone = voice || channel === 'SMS';
  const fromNumber = phone ? `+1555${String(prng.int(0, 9_999_999)).padStart(7, '0')}` : '';
  const toNumber = phone ? target.agentNumber : '';
  const variant = target.environment === 'live' ? prng.pick(VARIANTS) : { id: '', name: '' };
  const language = target.content.languageCode;
  let t = startMs;
  const iso = () => new Date(t).toISOString();
  const newId = () => prng.uuid();
  const opening = {
    conversationId,
    channel,
    environment: target.environment,
    callerNumber: fromNumber,
    agentNumber: toNumber,
    fromNumber,
    toNumber,
    variant,
    startedAt: iso(),
  };
  // the live deployment's content stands in for every environment's, under that environment's deployment id
  const served = { ...target.content, agentId: target.agentId, deploymentId: target.deploymentId };
  const { command, greeting } = startCommand(runtime, served, opening, newId);
  const commands: TimedCommand[] = [{ at: t, command }];
  let state = greeting.state;
  const turns = Math.max(1, Math.round(prng.between(4, 18)));
  for (let i = 0; i < turns; i++) {
    t += Math.round(prng.between(voice ? 2_000 : 4_000, voice ? 15_000 : 60_000));
    if (t > nowMs) return { conversationId, commands }; // still going on
    const last = i === turns - 1;
    const roll = prng.next();
    const text = last
      ? prng.pick(CLOSINGS)
      : roll < 0.05 && voice
        ? ''
        : roll < 0.15
          ? prng.pick(OFF_TOPIC)
          : utterance(prng);
    const result = await runtime.respond(target.content, {
      text,
      state,
      asrLangCode: language,
      ttsLangCode: language,
      metadata: {},
      receivedAt: iso(),
      newId,
    });
    const latencyS = Math.round(prng.between(voice ? 0.6 : 0.2, voice ? 2.5 : 1.5) * 1000) / 1000;
    const turn: Omit<TurnData, 'turnIndex'> = {
      ...result.turn,
      bargeIn: voice && prng.chance(0.05),
      agentResponseAt: new Date(t + latencyS * 1000).toISOString(),
      latency: {
        total_s: latencyS,
        stages: { retrieval: round(latencyS * 0.1), generation: round(latencyS * 0.8), actions: round(latencyS * 0.1) },
      },
    };
    commands.push({ at: t, command: { type: 'RecordTurn', turn, effects: result.effects as TurnEffects } });
    state = result.state;
    if (result.effects.handoff || result.effects.ended) return { conversationId, commands };
  }
  t += Math.round(prng.between(1_000, 5_000));
  if (t <= nowMs)
    commands.push({
      at: t,
      command: {
        type: 'EndConversation',
        reason: prng.chance(0.8) ? 'user' : prng.chance(0.5) ? 'agent' : 'timeout',
        now: iso(),
      },
    });
  return { conversationId, commands };
}

const round = (s: number) => Math.round(s * 1000) / 1000;
