import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { DeploymentContent } from '../agents/deployment-content';
import type { RuntimeSettings } from '../agents/runtime-settings';
import type { ConversationState } from '../conversations/conversation.decider';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { LOGGER } from '../platform/logging/logger';
import { EngineVoiceDialogue } from './engine-voice-dialogue';
import type { SpeakingAudio } from './media/speaking-audio';
import {
  SPEECH_RECOGNIZER,
  SPEECH_SYNTHESIZER,
  type SpeechRecognizer,
  type SpeechSynthesizer,
} from './speech/speech.port';
import type { EndOfTurnBounds } from './turn-taking/end-of-turn';
import { VOICE_ACTIVITY, type VoiceActivity } from './turn-taking/voice-activity';
import { VoiceLoop } from './turn-taking/voice-loop';
import type { VoiceCall, VoiceCalls, VoiceSession } from './voice-calls.port';
import { VOICE_CONFIG, type VoiceConfig } from './voice-config';
import { CallRecordings, type RecordingWriter } from './recording/call-recordings';
import { RecordingAudio } from './recording/recording-audio';

/** What callers say besides the agent's topics: recognition hints next to the example queries. */
const SMALL_TALK = ['hello', 'hi', 'yes', 'no', 'thank you', 'thanks', 'goodbye', 'bye', 'okay'];
/** how long attach waits for the call's conversation to exist (outbound calls start it asynchronously) */
const CONVERSATION_WAIT_MS = 5000;
/** how long a goodbye may still be playing before the call is hung up anyway */
const GOODBYE_MAX_MS = 20_000;

const isSpeaking = (audio: unknown): audio is SpeakingAudio =>
  typeof (audio as SpeakingAudio).onAudio === 'function' && typeof (audio as SpeakingAudio).play === 'function';

/**
 * The voice side of every answered SIP call (inbound and outbound): a VoiceLoop on the call's
 * audio whose dialogue is the conversation engine for the call's conversation (EngineVoiceDialogue).
 * The call is hung up when the agent ends the conversation (once its last words were said) or after
 * repeated silence; the loop stops when the far end hangs up.
 */
/** the agent's bounds of the end of turn, each defaulting to the platform's; never min above max */
function endOfTurnOf(voice: RuntimeSettings['voice'], turnTaking: VoiceConfig['turnTaking']): EndOfTurnBounds {
  const minMs = voice?.end_of_turn_min_ms ?? turnTaking.endOfTurnMinMs;
  return { minMs, maxMs: Math.max(minMs, voice?.end_of_turn_max_ms ?? turnTaking.endOfTurnMaxMs) };
}

@Injectable()
export class EngineVoiceCalls implements VoiceCalls {
  /** the recognition hints of each deployment (immutable, so cached for good) */
  private readonly phrases = new Map<string, Promise<string[]>>();

  constructor(
    private readonly engine: ConversationEngine,
    private readonly deployments: DeploymentContent,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(VOICE_CONFIG) private readonly config: VoiceConfig,
    @Inject(SPEECH_RECOGNIZER) private readonly recognizer: SpeechRecognizer,
    @Inject(SPEECH_SYNTHESIZER) private readonly synthesizer: SpeechSynthesizer,
    private readonly recordings: CallRecordings,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
    @Optional() @Inject(VOICE_ACTIVITY) private readonly voiceActivity: VoiceActivity | null = null,
  ) {}

  async attach(call: VoiceCall): Promise<VoiceSession | void> {
    if (!isSpeaking(call.audio)) {
      this.logger?.warn({ callSid: call.conversationId }, 'voice: the call audio cannot speak; the call stays silent');
      return;
    }
    const conversation = await this.conversationOf(call.conversationId);
    const settings = conversation
      ? await this.deployments
          .ofDeployment(conversation.agentId, conversation.deploymentId)
          .then((content) => content.settings ?? {})
          .catch(() => ({}) as RuntimeSettings)
      : {};
    let recording: { writer: RecordingWriter; audio: RecordingAudio } | null = null;
    if (settings.voice?.recording) {
      try {
        const writer = this.recordings.start(call.conversationId);
        recording = { writer, audio: new RecordingAudio(call.audio, writer) };
      } catch (error) {
        this.logger?.error({ err: error, callSid: call.conversationId }, 'voice: the call recording could not start');
      }
    }
    const audio: SpeakingAudio = recording?.audio ?? call.audio;
    let loop: VoiceLoop | null = null;
    let hangingUp = false;
    const hangUp = async () => {
      if (hangingUp) return;
      hangingUp = true;
      loop?.stop();
      await call.hangUp();
    };
    const dialogue = new EngineVoiceDialogue(
      call.conversationId,
      this.engine,
      this.store,
      this.logger,
      () => void this.afterGoodbye(audio).then(hangUp),
      hangUp,
    );
    const { turnTaking } = this.config;
    loop = new VoiceLoop(audio, dialogue, this.recognizer, this.synthesizer, {
      endOfUtteranceMs: turnTaking.endOfUtteranceMs,
      endOfTurn: endOfTurnOf(settings.voice, turnTaking),
      silencePromptMs: turnTaking.silencePromptMs,
      silencePromptsBeforeHangUp: turnTaking.silencePromptsBeforeHangUp,
      phrases: await this.phrasesOf(conversation),
      voiceActivity: this.voiceActivity ?? undefined,
    });
    const started = loop;
    void call.ended.then(() => {
      hangingUp = true;
      started.stop();
      void dialogue.flush();
      recording?.audio.detach();
      recording?.writer
        .finish()
        .catch((error: unknown) =>
          this.logger?.error({ err: error, callSid: call.conversationId }, 'voice: the call recording was lost'),
        );
    });
    loop.start();
    return {
      drain: async () => {
        hangingUp = true;
        started.stop();
        await started.idle();
        await dialogue.flush();
      },
    };
  }

  /** the answer that ended the conversation is still playing: let it finish */
  private async afterGoodbye(audio: SpeakingAudio): Promise<void> {
    const until = Date.now() + GOODBYE_MAX_MS;
    await new Promise((resolve) => setTimeout(resolve, 100));
    while (audio.speaking && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** the call's conversation; an outbound call's is started by its process manager, maybe just after the answer */
  private async conversationOf(conversationId: string): Promise<ConversationState | null> {
    const until = Date.now() + CONVERSATION_WAIT_MS;
    let conversation = await this.engine.current(conversationId).catch(() => null);
    while (!conversation?.exists && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      conversation = await this.engine.current(conversationId).catch(() => null);
    }
    return conversation?.exists ? conversation : null;
  }

  /** the deployment's active topics' example queries and small talk (none known yet: small talk) */
  private async phrasesOf(conversation: ConversationState | null): Promise<string[]> {
    if (!conversation) return SMALL_TALK;
    const key = `${conversation.agentId}/${conversation.deploymentId}`;
    let phrases = this.phrases.get(key);
    if (!phrases) {
      phrases = this.deployments
        .ofDeployment(conversation.agentId, conversation.deploymentId)
        .then((content) => [
          ...new Set([...content.topics.filter((t) => t.isActive).flatMap((t) => t.exampleQueries), ...SMALL_TALK]),
        ]);
      phrases.catch(() => this.phrases.delete(key));
      this.phrases.set(key, phrases);
    }
    return phrases.catch(() => SMALL_TALK);
  }
}
