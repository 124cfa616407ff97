import type { CallAudio } from './call-media.port';

/**
 * The seam where an answered call's audio meets the conversation: SIP signalling (src/sip for
 * inbound, src/outbound-calls/sip for outbound) hands each connected call here, with its audio
 * endpoint already pointed at the far end. The media side implements it (listen, recognise, answer,
 * speak); `hangUp` is how it ends the call from Parley's side (a BYE, the conversation ended by the
 * agent). Signalling closes `audio` itself when the call ends, whoever ends it.
 */
export interface VoiceCall {
  conversationId: string;
  accountId: string;
  agentId: string;
  direction: 'inbound' | 'outbound';
  audio: CallAudio;
  hangUp(): Promise<void>;
  /** resolves when the call is over (either side hung up, or the platform stopped) */
  ended: Promise<void>;
}

/** What the voice side hands back for an attached call. */
export interface VoiceSession {
  /**
   * The far end hung up: finish what is in hand (the utterance heard, the turn being answered)
   * and record it while the conversation is still open. Signalling awaits it, bounded, before it
   * ends the conversation.
   */
  drain(): Promise<void>;
}

export interface VoiceCalls {
  /** resolves once the call is taken; a session when there is work to drain at its end */
  attach(call: VoiceCall): Promise<VoiceSession | void>;
}

export const VOICE_CALLS = Symbol('VoiceCalls');
