import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { patient } from '../support/patience';

/**
 * sipp (Debian package `sip-tester`) as the callee of the SIP adapter's tests. Where it is missing
 * the suite is skipped with a loud message, except under CI=true, where it fails: CI installs it
 * (.ci/run), so a missing sipp there is a broken machine, not a reason to test less.
 */
export function sippAvailable(): boolean {
  const probe = spawnSync('sipp', ['-v'], { encoding: 'utf8' });
  return probe.error === undefined && /SIPp v/.test(`${probe.stdout}${probe.stderr}`);
}

export function sippMissing(): void {
  const message = [
    '',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    '!! SKIPPED: the SIP adapter tests need `sipp` (apt-get install -y sip-tester).     !!',
    '!! Without it the SIP carrier is NOT tested on this machine. CI installs it.      !!',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    '',
  ].join('\n');
  if (process.env.CI === 'true') throw new Error(`sipp is not installed, and CI=true: ${message}`);
  console.warn(message);
}

/** A UDP port free right now on 127.0.0.1 (the OS picks it; sipp binds it a moment later). */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface SippRun {
  /** resolves with sipp's exit code and what it printed */
  exited: Promise<{ code: number | null; output: string }>;
  kill(): void;
}

/** Runs one scenario of ./sipp as a UAS on 127.0.0.1:`port` (UDP, or TCP with `t1`), for exactly one call; `extra` sipp options (`-rtp_echo`). */
export async function runCallee(
  scenario: string,
  port: number,
  transport: 'u1' | 't1' = 'u1',
  extra: string[] = [],
): Promise<SippRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sipp-'));
  const child = spawn(
    'sipp',
    [
      '-sf',
      path.join(__dirname, 'sipp', scenario),
      '-i',
      '127.0.0.1',
      '-p',
      String(port),
      '-m',
      '1',
      '-nostdin',
      '-timeout',
      `${patient(20)}s`,
      '-timeout_error',
      '-trace_err',
      '-mp',
      String(port + 2),
      '-t',
      transport,
      ...extra,
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => {
      const errors = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('_errors.log'))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        .join('\n');
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ code, output: `${output.slice(-4000)}\n${errors}` });
    }),
  );
  // give it a moment to bind its socket before the INVITE goes out
  await new Promise((resolve) => setTimeout(resolve, 400));
  return { exited, kill: () => child.kill('SIGKILL') };
}
