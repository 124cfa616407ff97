import { useEffect, useMemo, useRef, useState } from 'react';
import { useStudio } from '../api/context';
import { ApiError } from '../api/http';
import type { Conversation } from '../api/types';
import { ErrorNote } from '../ui';
import { clock, parseWav, speechSpans, turnAt, turnStarts, type CallAudio } from './call-timeline';
import '../settings/settings.css';

const RECORDING = '/v3/{accountId}/{projectId}/conversations/{conversationId}/recording';

/**
 * Whether a conversation is a phone call: its channel says so, or (for a key that sees only the
 * basic fields, no channel) its id does: inbound calls are `IN-<uuid>`, outbound `OUT-<uuid>`.
 */
export const isCall = (c: Conversation) =>
  typeof c.channel === 'string' ? c.channel.startsWith('VOICE') : /^(IN|OUT)-/.test(c.id);

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; audio: CallAudio }
  | { state: 'none' }
  | { state: 'forbidden' }
  | { state: 'failed'; error: unknown };

/**
 * A voice conversation's recording (issue 50): the caller and the agent as the two channels the
 * recording API serves (each can be muted), the transcript following the audio with the turn
 * playing marked, and each turn a button that plays from its start. Read with the key's header, so
 * it is fetched and played through Web Audio (the page's CSP allows no blob: media).
 */
export function CallPlayer({ agentId, conversation }: { agentId: string; conversation: Conversation }) {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  const mayRead = session.permissions.includes('conversations');
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    if (!mayRead) return;
    let live = true;
    const path = RECORDING.replace('{accountId}', encodeURIComponent(accountId))
      .replace('{projectId}', encodeURIComponent(agentId))
      .replace('{conversationId}', encodeURIComponent(conversation.id));
    fetch(`${api.http.baseFor(path)}${path}`, { headers: { 'x-api-key': session.secret, accept: 'audio/wav' } })
      .then(async (response) => {
        if (response.ok) return { state: 'ready', audio: parseWav(await response.arrayBuffer()) } as const;
        const envelope = await response.json().catch(() => null);
        if (response.status === 404) return { state: 'none' } as const;
        if (response.status === 403) return { state: 'forbidden' } as const;
        return { state: 'failed', error: new ApiError(response.status, envelope) } as const;
      })
      .catch((error: unknown) => ({ state: 'failed', error }) as const)
      .then((next) => live && setLoaded(next));
    return () => {
      live = false;
    };
  }, [api, session.secret, accountId, agentId, conversation.id, mayRead]);

  let body;
  if (!mayRead)
    body = <p data-testid="recording-note">This key may not read recordings: it needs the conversations permission.</p>;
  else if (loaded.state === 'loading') body = <p role="status">Loading the recording…</p>;
  else if (loaded.state === 'forbidden')
    body = <p data-testid="recording-note">This key may not read this conversation&apos;s recording.</p>;
  else if (loaded.state === 'none' && conversation.in_progress)
    body = (
      <p data-testid="recording-note">No recording yet: a call&apos;s recording is served once the call has ended.</p>
    );
  else if (loaded.state === 'none')
    body = (
      <p data-testid="recording-note">
        No recording for this call: the agent did not record calls then, its retention has passed, or this
        project&apos;s data access hides transcripts (a recording holds everything a transcript does).
      </p>
    );
  else if (loaded.state === 'failed') body = <ErrorNote error={loaded.error} />;
  else body = <Player audio={loaded.audio} conversation={conversation} />;
  return (
    <section aria-labelledby="recording-title" className="call-player">
      <h2 id="recording-title">Recording</h2>
      {body}
    </section>
  );
}

interface Playback {
  ctx: AudioContext;
  buffer: AudioBuffer;
  gains: [GainNode, GainNode];
  merger: ChannelMergerNode;
  source: AudioBufferSourceNode | null;
  /** the context's time at which position 0 would have played (while playing) */
  origin: number;
}

function Player({ audio, conversation }: { audio: CallAudio; conversation: Conversation }) {
  const duration = audio.caller.length / audio.rate;
  const turns = useMemo(() => conversation.turns ?? [], [conversation.turns]);
  const starts = useMemo(
    () => turnStarts(turns, conversation.started_at, speechSpans(audio.caller, audio.rate), duration),
    [turns, conversation.started_at, audio, duration],
  );
  const playback = useRef<Playback | null>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [hear, setHear] = useState({ caller: true, agent: true });

  useEffect(
    () => () => {
      playback.current?.source?.stop();
      void playback.current?.ctx.close();
    },
    [],
  );
  // the position follows the audio while it plays
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const p = playback.current;
      if (!p) return;
      const at = p.ctx.currentTime - p.origin;
      setPosition(Math.min(duration, at));
    }, 50);
    return () => clearInterval(timer);
  }, [playing, duration]);

  /** the audio graph, made on the first play (a browser lets audio start only after a gesture) */
  const graph = (): Playback => {
    if (playback.current) return playback.current;
    const ctx = new AudioContext();
    const buffer = ctx.createBuffer(2, audio.caller.length, audio.rate);
    buffer.copyToChannel(audio.caller as Float32Array<ArrayBuffer>, 0);
    buffer.copyToChannel(audio.agent as Float32Array<ArrayBuffer>, 1);
    const merger = ctx.createChannelMerger(2);
    const gains: [GainNode, GainNode] = [ctx.createGain(), ctx.createGain()];
    gains[0].connect(merger, 0, 0);
    gains[1].connect(merger, 0, 1);
    merger.connect(ctx.destination);
    playback.current = { ctx, buffer, gains, merger, source: null, origin: 0 };
    return playback.current;
  };

  const stop = () => {
    const p = playback.current;
    if (!p?.source) return;
    p.source.onended = null;
    p.source.stop();
    p.source = null;
  };

  const playFrom = (from: number) => {
    const p = graph();
    stop();
    const at = Math.max(0, Math.min(from, duration));
    const source = p.ctx.createBufferSource();
    source.buffer = p.buffer;
    const splitter = p.ctx.createChannelSplitter(2);
    source.connect(splitter);
    splitter.connect(p.gains[0], 0);
    splitter.connect(p.gains[1], 1);
    source.onended = () => {
      p.source = null;
      setPlaying(false);
      setPosition(duration);
    };
    void p.ctx.resume();
    source.start(0, at);
    p.source = source;
    p.origin = p.ctx.currentTime - at;
    setPosition(at);
    setPlaying(true);
  };

  const pause = () => {
    const p = playback.current;
    if (p) setPosition(Math.min(duration, p.ctx.currentTime - p.origin));
    stop();
    setPlaying(false);
  };

  const seek = (to: number) => (playing ? playFrom(to) : setPosition(Math.max(0, Math.min(to, duration))));

  const setHearing = (side: 'caller' | 'agent', on: boolean) => {
    setHear({ ...hear, [side]: on });
  };
  // the gains follow the choice (and take it when the first play makes them)
  useEffect(() => {
    const p = playback.current;
    if (!p) return;
    p.gains[0].gain.value = hear.caller ? 1 : 0;
    p.gains[1].gain.value = hear.agent ? 1 : 0;
  }, [hear, playing]);

  const current = turnAt(starts, position);
  return (
    <>
      <div className="controls">
        <button type="button" onClick={() => (playing ? pause() : playFrom(position >= duration ? 0 : position))}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <label className="sr-only" htmlFor="call-position">
          Position in the call
        </label>
        <input
          id="call-position"
          type="range"
          min={0}
          max={duration}
          step={0.1}
          value={position}
          onChange={(e) => seek(Number(e.target.value))}
          aria-valuetext={`${clock(position)} of ${clock(duration)}`}
        />
        <span data-testid="call-position" data-seconds={position.toFixed(2)}>
          {clock(position)} / {clock(duration)}
        </span>
        <label>
          <input type="checkbox" checked={hear.caller} onChange={(e) => setHearing('caller', e.target.checked)} />
          Caller (left)
        </label>
        <label>
          <input type="checkbox" checked={hear.agent} onChange={(e) => setHearing('agent', e.target.checked)} />
          Agent (right)
        </label>
      </div>
      {turns.length > 0 ? (
        <ol className="call-turns" aria-label="Call transcript">
          {turns.map((t, i) => (
            <li key={i}>
              <button
                type="button"
                aria-current={i === current}
                data-turn={i}
                data-start={starts[i].toFixed(2)}
                onClick={() => playFrom(starts[i])}
              >
                <span className="at">{clock(starts[i])}</span>
                {t.user_input && (
                  <>
                    <strong>Caller:</strong> {t.user_input}{' '}
                  </>
                )}
                {t.agent_response && (
                  <>
                    <strong>Agent:</strong> {t.agent_response}
                  </>
                )}
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="hint">No transcript to follow: this project&apos;s data access hides it.</p>
      )}
    </>
  );
}
