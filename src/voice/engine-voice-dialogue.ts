import type { Logger } from 'pino';
import type { CommandContext } from '../commands/command-context';
import { conversationStream, type TurnData } from '../conversations/conversation.events';
import type { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { EventStore } from '../event-store/event-store.port';
import type { TurnResult } from '../runtime/agent-runtime';
import type {
  AgentAnswer,
  HangUpReason,
  SpokenLatency,
  UserTurnInput,
  VoiceDialogue,
} from './turn-taking/voice-dialogue.port';

const seconds = (ms: number) => Math.max(0, ms) / 1000;
/** how long greet() waits for the call's conversation to have its greeting (outbound starts it asynchronously) */
const GREETING_WAIT_MS = 5000;

/** A voice turn the agent answers, recorded once its speech stages are known (null: the answer failed). */
interface PendingTurn {
  result: Promise<TurnResult | null>;
  input: UserTurnInput;
  index: number;
}

/**
 * The VoiceLoop's dialogue over the conversation engine for one call: the greeting recorded when
 * the call was answered is spoken (not recorded again), each utterance or keypad entry is a user
 * turn through `engine.thinkStream` (the loop speaks the answer sentence by sentence while the
 * model writes it), and the turn is recorded once its answer's first audio has left,
 * so it carries the speech stages (`asr`, `tts`, `first_audio`), `barge_in` and `dtmf`. A turn
 * whose answer never reached the line (cut off, the call ended) is recorded without `tts`.
 */
export class EngineVoiceDialogue implements VoiceDialogue {
  private pending: PendingTurn | null = null;
  private recording: Promise<void> = Promise.resolve();
  private turns = 0;

  constructor(
    private readonly conversationId: string,
    private readonly engine: ConversationEngine,
    private readonly store: EventStore,
    private readonly logger: Logger | null,
    /** the agent ended the conversation (goodbye, handoff): the call is hung up once the answer was said */
    private readonly onEnded: () => void,
    private readonly hangUpCall: (reason: HangUpReason) => Promise<void>,
  ) {}

  async greet(): Promise<AgentAnswer> {
    const deadline = Date.now() + GREETING_WAIT_MS;
    for (;;) {
      const events = await this.store.readStream(conversationStream(this.conversationId));
      const greeting = events.find((e) => e.type === 'TurnRecorded');
      if (greeting) return (greeting.data as TurnData).agentResponse;
      if (Date.now() > deadline) return '';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async userTurn(input: UserTurnInput): Promise<AgentAnswer> {
    await this.flush();
    const conversation = await this.engine.current(this.conversationId);
    if (!conversation.exists || conversation.ended) return '';
    // keyed input reads as its digits; the '#' that ended the entry is not part of it (the turn's `dtmf` keeps it)
    const text = input.text ?? (input.dtmf && input.dtmf !== '#' ? input.dtmf.replace(/#$/, '') : (input.dtmf ?? ''));
    // the answer's pieces as the model writes them: the loop speaks each sentence once it is complete
    const { chunks, result } = await this.engine.thinkStream(conversation, {
      text,
      ...(input.dtmf ? { metadata: { dtmf: input.dtmf } } : {}),
    });
    // handled at once: the turn is recorded (or dropped) only after the answer was said
    const settled = result.catch((error: unknown) => {
      this.logger?.warn({ err: error, conversationId: this.conversationId }, 'voice: the agent could not answer');
      return null;
    });
    this.pending = { result: settled, input, index: ++this.turns };
    return chunks;
  }

  answerSpoken(latency: SpokenLatency | null, interrupted: boolean): void {
    void this.flush(latency, interrupted);
  }

  async hangUp(reason: HangUpReason): Promise<void> {
    await this.flush();
    await this.hangUpCall(reason);
  }

  /**
   * records the turn waiting for its speech stages (none: its answer was not heard); a turn still
   * waiting when the call ends had its answer cut short
   */
  flush(latency: SpokenLatency | null = null, interrupted = this.pending !== null): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    if (pending) this.recording = this.recording.then(() => this.record(pending, latency, interrupted));
    return this.recording;
  }

  private async record(pending: PendingTurn, spoken: SpokenLatency | null, interrupted: boolean): Promise<void> {
    const { input, index } = pending;
    const result = await pending.result;
    if (!result) return;
    const stages: Record<string, number> = { ...result.turn.latency.stages, asr: seconds(input.latency.asr_ms) };
    if (spoken) Object.assign(stages, { tts: seconds(spoken.tts_ms), first_audio: seconds(spoken.first_audio_ms) });
    const turn: Omit<TurnData, 'turnIndex'> = {
      ...result.turn,
      bargeIn: input.bargeIn,
      ...(input.dtmf ? { dtmf: input.dtmf } : {}),
      ...(interrupted && result.turn.agentResponse ? { interrupted: true } : {}),
      latency: { ...result.turn.latency, stages },
    };
    const context: CommandContext = {
      actor: 'system:voice',
      correlationId: this.conversationId,
      idempotencyKey: `voice:${this.conversationId}:turn:${index}`,
    };
    try {
      const after = await this.engine.record(this.conversationId, { turn, effects: result.effects }, context);
      if (after.state.ended) this.onEnded();
    } catch (error) {
      // the caller hung up first and the conversation is over: the answer they did not hear is lost
      this.logger?.warn({ err: error, conversationId: this.conversationId }, 'voice: a turn could not be recorded');
    }
  }
}
