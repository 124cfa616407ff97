/** Largest WebSocket frame a client may send (contract §2); a larger one closes the socket with 1009. */
export const MAX_MESSAGE_BYTES = 128 * 1024;
/** A socket whose client reads slower than this much is backed up is dropped (it can resume from its cursor). */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** WebSocket pings find connections that died without a close. */
export const PING_INTERVAL_MS = 30_000;
