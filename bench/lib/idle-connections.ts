/**
 * Idle TCP connections that never send a byte, held open against the server (cases/edge-flood.ts),
 * in a process of its own: each needs a file descriptor, and several of these processes share a
 * flood one file limit could not hold. Connection i comes from loopback address `firstAddress + i /
 * perAddress` (127.0.0.0/8 is all loopback on Linux), so a per-address cap does not refuse them
 * all. One the server closes is opened again after REOPEN_DELAY_MS, as a client keeping up the
 * flood would.
 *
 * A connect completes when the kernel has answered it, before the server has accepted it; one
 * made while the listen backlog is full is dropped by the server and still looks open here,
 * holding nothing. So connects are paced (OPEN_PER_SECOND), and TCP keep-alive probes (no byte the
 * application sees) find such a connection within seconds by the server's reset: it is opened again.
 * Prints a status line (IdleStatus) every STATUS_INTERVAL_MS; once its stdin ends (or after
 * `maxSeconds`) it closes every socket and prints one `{"event":"done",...}` line.
 *
 * argv: host port count firstAddress perAddress maxSeconds
 */
import net from 'node:net';

export interface IdleStatus {
  event: 'status' | 'done';
  /** connections open right now */
  held: number;
  /** every connect that succeeded, reopenings included */
  opened: number;
  /** connections that the server (or the kernel) ended */
  closedByServer: number;
  /** connects that failed, by error code */
  failed: Record<string, number>;
}

const [host, portArg, countArg, firstAddressArg, perAddressArg, maxSecondsArg] = process.argv.slice(2);
const count = Number(countArg);
const perAddress = Number(perAddressArg);
const firstAddress = ipv4ToNumber(firstAddressArg);
const REOPEN_DELAY_MS = 250;
const OPEN_PER_SECOND = 1_000;
const PACE_MS = 10;
const KEEPALIVE_PROBE_AFTER_MS = 2_000;
const STATUS_INTERVAL_MS = 250;

const sockets = new Set<net.Socket>();
const waiting: number[] = [];
const failed: Record<string, number> = {};
let held = 0;
let opened = 0;
let closedByServer = 0;
let stopping = false;

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
}

function open(slot: number): void {
  let connected = false;
  const socket = net.connect({
    host,
    port: Number(portArg),
    localAddress: numberToIpv4(firstAddress + Math.floor(slot / perAddress)),
  });
  sockets.add(socket);
  socket.setKeepAlive(true, KEEPALIVE_PROBE_AFTER_MS);
  socket.on('connect', () => {
    connected = true;
    held++;
    opened++;
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (!connected) failed[error.code ?? error.message] = (failed[error.code ?? error.message] ?? 0) + 1;
  });
  socket.on('close', () => {
    sockets.delete(socket);
    if (connected) {
      held--;
      if (!stopping) closedByServer++;
    }
    if (!stopping) setTimeout(() => queue(slot), REOPEN_DELAY_MS);
  });
  // reads (and drops) whatever the server sends, a 408 say, so its closing is seen at once
  socket.resume();
}

function queue(slot: number): void {
  if (!stopping) waiting.push(slot);
}

/** Opens the next few waiting connections, OPEN_PER_SECOND in all. */
const pacer = setInterval(() => {
  for (let n = 0; n < (OPEN_PER_SECOND * PACE_MS) / 1000 && waiting.length > 0 && !stopping; n++)
    open(waiting.shift()!);
}, PACE_MS);

const status = (event: IdleStatus['event']): IdleStatus => ({ event, held, opened, closedByServer, failed });
const timer = setInterval(() => process.stdout.write(`${JSON.stringify(status('status'))}\n`), STATUS_INTERVAL_MS);

function stop(): void {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  clearInterval(pacer);
  const final = status('done');
  for (const socket of sockets) socket.destroy();
  process.stdout.write(`${JSON.stringify(final)}\n`, () => process.exit(0));
}

process.stdin.on('end', stop).resume();
setTimeout(stop, Number(maxSecondsArg) * 1000).unref();
for (let slot = 0; slot < count; slot++) waiting.push(slot);
