import { useEffect, useRef, useState } from 'react';
import { loadHosts } from '../api/config';
import type { Conversation } from '../api/types';
import type { FeedNotice } from './merge-notice';
import { describeClose, openSocket } from './socket';

export type { FeedNotice };

/** Reconnects after a drop, slower each time, up to this. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Follows one project's conversations over `/studio/ws` (docs/sockets.md) and hands each notice to
 * `onNotice`. Returns what the page shows about it: `live`, or why not. A revoked or expired key
 * is not retried.
 */
export function useConversationFeed(secret: string, agentId: string, onNotice: (notice: FeedNotice) => void): string {
  const [status, setStatus] = useState('connecting');
  const handler = useRef(onNotice);
  handler.current = onNotice;

  useEffect(() => {
    let ws: WebSocket | null = null;
    let gone = false;
    let backoff = 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () =>
      loadHosts().then((hosts) => {
        if (gone) return;
        ws = openSocket('/studio/ws', { project_id: agentId }, secret, hosts, 'page');
        ws.onmessage = (m) => {
          let frame: { type?: string; conversation?: Conversation };
          try {
            frame = JSON.parse(String(m.data));
          } catch {
            return;
          }
          if (frame.type === 'FEED_READY') {
            backoff = 1000;
            setStatus('live');
          } else if (frame.conversation && frame.type?.startsWith('CONVERSATION_'))
            handler.current(frame as FeedNotice);
        };
        ws.onclose = (e) => {
          if (gone) return;
          setStatus(`not live: ${describeClose(e.code)}`);
          if (e.code === 4401 || e.code === 4403) return;
          timer = setTimeout(connect, backoff);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        };
      });
    connect();
    return () => {
      gone = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, [secret, agentId]);
  return status;
}
