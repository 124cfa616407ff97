import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a refused connection stays half-closed for its client to read the answer (nginx's lingering close). */
const LINGER_MS = 2000;

/** How long a refusal to a client still sending its body is held before it is sent (a 429: at most its Retry-After). */
export const REFUSAL_HOLD_MS = 1000;

/**
 * A request refused before its body was read (a spent byte budget, a refused key, 413, 415) is
 * answered, and the rest of its body is never read: Node would otherwise read and discard it all,
 * keeping a refused megabyte flood's cost on the event loop after the 429. The connection is then
 * of no further use (the client may think it sent the body), so the answer says `Connection:
 * close`; the socket stops reading, sends its FIN after the answer and lingers a moment before it
 * is destroyed, so the client reads the answer rather than a reset.
 *
 * Such a refusal (a spent byte budget or key rate, 413, 415, a refused key) is also held a second
 * before it is sent: a client that loops on refusals would otherwise come back at once, and
 * accepting, refusing and closing thousands of connections a second costs the loop and the CPU
 * every tenant shares. Held, each of its loops makes about one request a second while its body
 * waits in the kernel's buffers. A body that had all arrived is not held: only a client still
 * sending is slowed.
 */
export function leaveUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw as typeof request.raw & { _dumped?: boolean };
    if (!raw.complete && reply.statusCode >= 400) {
      // IncomingMessage._dump resumes the socket to drain the body unless it was dumped already
      raw._dumped = true;
      lingerOnClose(raw.socket);
      reply.header('connection', 'close');
      return void setTimeout(() => done(null, payload), holdMs(reply)).unref();
    }
    done(null, payload);
  });
}

/** Node ends a `Connection: close` socket with destroySoon: here, end it and destroy it only after the linger. */
function lingerOnClose(socket: Socket): void {
  socket.pause();
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

function holdMs(reply: { getHeader(name: string): unknown }): number {
  const retryAfterS = Number(reply.getHeader('retry-after'));
  return retryAfterS > 0 ? Math.min(REFUSAL_HOLD_MS, retryAfterS * 1000) : REFUSAL_HOLD_MS;
}
