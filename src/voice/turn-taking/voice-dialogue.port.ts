/** What the turn-taking loop says to the conversation engine: the dialogue behind the voice. */
export type AgentAnswer = AsyncIterable<string> | string;

export interface UserTurnInput {
  text?: string;
  dtmf?: string;
  /** the caller spoke (or pressed a key) over the agent's previous answer, which was cut short */
  bargeIn: boolean;
  latency: { asr_ms: number };
}

/** the speech stages of an answer, known once its first audio has left */
export interface SpokenLatency {
  tts_ms: number;
  /** end of the caller's utterance (as detected) → the answer's first RTP packet */
  first_audio_ms: number;
}

export type HangUpReason = 'silence' | 'stopped';

export interface VoiceDialogue {
  greet(): Promise<AgentAnswer>;
  userTurn(input: UserTurnInput): Promise<AgentAnswer>;
  hangUp(reason: HangUpReason): Promise<void>;
  /**
   * optional: called once each user turn's answer is over, with its speech latency (null when none
   * of it reached the line: cut off by barge-in before its first audio, nothing to say), and
   * whether part of it was left unsaid (barge-in, the caller hung up)
   */
  answerSpoken?(latency: SpokenLatency | null, interrupted: boolean): void;
}
