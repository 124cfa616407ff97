import { spawn } from 'node:child_process';

/**
 * Runs an engine's binary once (a process per utterance is what the embedded adapters do): its
 * stdout, or a rejection when it fails, cannot be started, or is aborted (the process is killed).
 */
export function runProcess(
  bin: string,
  args: readonly string[],
  input: Buffer | string | null,
  signal?: AbortSignal,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(`${bin}: aborted`));
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 4000) err += d.toString();
    });
    child.stdin.on('error', () => undefined); // a binary that exits without reading its input
    child.on('error', (e) => {
      signal?.removeEventListener('abort', abort);
      reject(new Error(`${bin}: ${e.message}`));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) reject(new Error(`${bin}: aborted`));
      else if (code !== 0)
        reject(
          new Error(
            `${bin} exited with ${code}: ${err
              .split('\n')
              .filter((l) => /error/i.test(l))
              .slice(0, 3)
              .join(' | ')}`,
          ),
        );
      else resolve(Buffer.concat(out));
    });
    child.stdin.end(input ?? undefined);
  });
}
