import dgram from 'node:dgram';
import net from 'node:net';
import type { Logger } from 'pino';
import type { ConnectionCap } from '../platform/limits/connection-cap';
import { SipStreamFramer } from './sip-framing';

export type SipTransport = 'UDP' | 'TCP';

/** Where a message came from, and how to answer it there (the same socket, or the same TCP connection). */
export interface SipPeer {
  transport: SipTransport;
  address: string;
  port: number;
  send(text: string): void;
}

/** TCP connections one listener holds at once; each idle this long is closed. */
const MAX_TCP_CONNECTIONS = 1024;
const TCP_IDLE_MS = 30 * 60 * 1000;

/**
 * The SIP server's sockets: UDP and TCP on one port (RFC 3261 §18: a server listens on both).
 * Each complete message goes to `onMessage` with the peer to answer; what cannot be framed closes
 * its connection, and nothing a peer sends can throw out of here.
 */
/** how many times a port picked by the OS (port 0) is picked again when TCP finds it taken */
const PICK_ATTEMPTS = 5;

export class SipListener {
  private udp: dgram.Socket | null = null;
  private tcp: net.Server | null = null;
  private readonly connections = new Set<net.Socket>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly onMessage: (text: string, peer: SipPeer) => void,
    private readonly logger: Logger,
    /** the per-address cap of contract §21 on TCP connections; none: only the listener's total */
    private readonly cap: ConnectionCap | null = null,
  ) {}

  /**
   * Binds both; resolves with the port (the one UDP got when asked for 0). A port the OS picked for
   * UDP can already be taken for TCP (an outgoing connection's ephemeral port): then both are
   * picked again, a few times.
   */
  async start(): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.bindBoth();
      } catch (error) {
        const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (this.port !== 0 || !taken || attempt >= PICK_ATTEMPTS) throw error;
      }
    }
  }

  private async bindBoth(): Promise<number> {
    const udp = dgram.createSocket(net.isIPv6(this.host) ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(this.port, this.host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    this.udp = udp;
    udp.on('error', (error) => this.logger.warn({ err: error }, 'SIP UDP socket error'));
    udp.on('message', (data, from) =>
      this.deliver(data.toString('utf8'), {
        transport: 'UDP',
        address: from.address,
        port: from.port,
        send: (text) => udp.send(text, from.port, from.address, (error) => error && this.sendFailed(error)),
      }),
    );
    const port = udp.address().port;
    const tcp = net.createServer((socket) => this.accept(socket));
    tcp.maxConnections = MAX_TCP_CONNECTIONS;
    this.cap?.guard(tcp, (socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, this.host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      this.udp = null;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      throw error;
    }
    tcp.on('error', (error) => this.logger.warn({ err: error }, 'SIP TCP listener error'));
    this.tcp = tcp;
    return port;
  }

  async close(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
    this.udp = null;
    this.tcp = null;
  }

  private accept(socket: net.Socket): void {
    if (socket.destroyed) return; // refused by the per-address cap
    this.connections.add(socket);
    const framer = new SipStreamFramer();
    const peer: SipPeer = {
      transport: 'TCP',
      address: socket.remoteAddress ?? '',
      port: socket.remotePort ?? 0,
      send: (text) => {
        if (!socket.destroyed) socket.write(text);
      },
    };
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.connections.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      let messages: string[];
      try {
        messages = framer.push(chunk);
      } catch (error) {
        // the stream cannot be framed any more: nothing after this point can be read safely
        this.logger.info({ err: error, peer: `${peer.address}:${peer.port}` }, 'SIP TCP stream refused');
        socket.destroy();
        return;
      }
      for (const text of messages) this.deliver(text, peer);
    });
  }

  private deliver(text: string, peer: SipPeer): void {
    try {
      this.onMessage(text, peer);
    } catch (error) {
      this.logger.error({ err: error, peer: `${peer.address}:${peer.port}` }, 'SIP message handling failed');
    }
  }

  private sendFailed(error: Error): void {
    this.logger.warn({ err: error }, 'SIP send failed');
  }
}

/** An outbound call's own connection to the trunk: a connected UDP socket, or a TCP connection. */
export interface SipChannel {
  transport: SipTransport;
  localAddress: string;
  localPort: number;
  send(text: string): void;
  close(): void;
}

export async function openChannel(
  transport: SipTransport,
  host: string,
  port: number,
  onMessage: (text: string) => void,
  onError: (error: Error) => void,
): Promise<SipChannel> {
  return transport === 'UDP' ? openUdp(host, port, onMessage, onError) : openTcp(host, port, onMessage, onError);
}

function openUdp(
  host: string,
  port: number,
  onMessage: (text: string) => void,
  onError: (error: Error) => void,
): Promise<SipChannel> {
  const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => {
      socket.connect(port, host, () => {
        socket.off('error', reject);
        // ICMP port unreachable arrives as an error on a connected socket
        socket.on('error', onError);
        socket.on('message', (data) => onMessage(data.toString('utf8')));
        const local = socket.address();
        resolve({
          transport: 'UDP',
          localAddress: local.address,
          localPort: local.port,
          send: (text) => socket.send(text),
          close: () => socket.close(),
        });
      });
    });
  });
}

function openTcp(
  host: string,
  port: number,
  onMessage: (text: string) => void,
  onError: (error: Error) => void,
): Promise<SipChannel> {
  const socket = net.connect({ host, port });
  const framer = new SipStreamFramer();
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', onError);
      socket.on('data', (chunk: Buffer) => {
        try {
          for (const text of framer.push(chunk)) onMessage(text);
        } catch (error) {
          socket.destroy();
          onError(error as Error);
        }
      });
      resolve({
        transport: 'TCP',
        localAddress: socket.localAddress ?? '127.0.0.1',
        localPort: socket.localPort ?? 0,
        send: (text) => {
          if (!socket.destroyed) socket.write(text);
        },
        close: () => socket.end(),
      });
    });
  });
}
