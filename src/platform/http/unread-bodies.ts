import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a refused connection stays half-closed for its client to read the answer (nginx's lingering close). */
const LINGER_MS = 2000;

/**
 * A request refused before its body was read (a spent byte budget, a refused key, 413, 415) is
 * answered, and the rest of its body is never read: Node would otherwise read and discard it all,
 * keeping a refused megabyte flood's cost on the event loop after the 429. The connection is then
 * of no further use (the client may think it sent the body), so the answer says `Connection:
 * close`; the socket stops reading, sends its FIN after the answer and lingers a moment before it
 * is destroyed, so the client reads the answer rather than a reset.
 */
export function leaveUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw as typeof request.raw & { _dumped?: boolean };
    if (!raw.complete && reply.statusCode >= 400) {
      // IncomingMessage._dump resumes the socket to drain the body unless it was dumped already
      raw._dumped = true;
      lingerOnClose(raw.socket);
      reply.header('connection', 'close');
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
