import net from 'node:net';
import pino from 'pino';
import { SipListener } from './sip-transport';

const logger = pino({ level: 'silent' });

describe('SipListener on 127.0.0.1', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asked for any port, picks again when the one UDP got is taken for TCP', async () => {
    // The collision itself cannot be arranged (the OS picks the port), so the first TCP listen is
    // answered as the kernel would answer a taken port.
    const listen = net.Server.prototype.listen;
    let refused = 0;
    jest.spyOn(net.Server.prototype, 'listen').mockImplementation(function (this: net.Server, ...args: unknown[]) {
      if (refused++ === 0) {
        process.nextTick(() => this.emit('error', Object.assign(new Error('taken'), { code: 'EADDRINUSE' })));
        return this;
      }
      return (listen as (...a: unknown[]) => net.Server).apply(this, args);
    });
    const listener = new SipListener('127.0.0.1', 0, () => undefined, logger);
    const port = await listener.start();
    try {
      expect(refused).toBe(2);
      // TCP really listens on the port it answered with (UDP bound it first)
      await new Promise<void>((resolve, reject) =>
        net
          .connect(port, '127.0.0.1')
          .once('connect', function (this: net.Socket) {
            this.destroy();
            resolve();
          })
          .once('error', reject),
      );
    } finally {
      await listener.close();
    }
  });

  it('a port asked for by number and taken for TCP is an error, not another port', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      const listener = new SipListener('127.0.0.1', taken, () => undefined, logger);
      await expect(listener.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      await listener.close();
    } finally {
      holder.close();
    }
  });
});
