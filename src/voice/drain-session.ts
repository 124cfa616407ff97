import type { VoiceSession } from './voice-calls.port';

/**
 * Waits for a call's voice session to record the turn in hand (the far end hung up mid-answer), at
 * most `ms`: a stuck engine never holds the call's end. A failure is handed to `failed`, not thrown.
 */
export async function drainSession(
  session: Promise<VoiceSession | void> | null,
  ms: number,
  failed: (error: unknown) => void,
): Promise<void> {
  if (!session) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  const drained = session.then((s) => s?.drain()).catch(failed);
  await Promise.race([drained, late]);
  clearTimeout(timer);
}
