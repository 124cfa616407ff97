/** Largest WebSocket frame a client may send (contract §2); `ws` closes a socket sent a larger one with 1009. */
export const WS_MAX_FRAME_BYTES = 128 * 1024;
