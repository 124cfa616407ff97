import type { FastifyInstance } from 'fastify';

/**
 * A request refused before its body was read (a spent byte budget, a refused key, 413, 415) is
 * answered, and the rest of its body is left unread: Node would otherwise read and discard it all
 * (keeping a megabyte flood's cost on the event loop after the 429), and closing at once would
 * reset the connection under the answer before the client reads it. The socket stops reading, so a
 * client still sending is held by TCP's own flow control, at no cost to either side, until it
 * reads its answer and closes, or the keep-alive timeout closes it.
 */
export function leaveUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw as typeof request.raw & { _dumped?: boolean };
    if (!raw.complete && reply.statusCode >= 400) {
      raw.socket.pause();
      // IncomingMessage._dump resumes the socket to drain the body unless it was dumped already
      raw._dumped = true;
      reply.header('connection', 'keep-alive');
    }
    done(null, payload);
  });
}
