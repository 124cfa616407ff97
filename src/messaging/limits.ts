import { WS_MAX_FRAME_BYTES } from '../platform/ws/ws-limits';

/** Largest WebSocket frame a client may send (contract §2), as the sockets' capabilities announce it; the adapter enforces it (1009). */
export const MAX_MESSAGE_BYTES = WS_MAX_FRAME_BYTES;
/** A socket whose client reads slower than this much is backed up is dropped (it can resume from its cursor). */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** WebSocket pings find connections that died without a close. */
export const PING_INTERVAL_MS = 30_000;
