import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { commandGroups, describeMismatch, indent, matchesClaim, type CommandGroup, type DocBlock } from './doc-blocks';

/**
 * Runs a chain of doc blocks in ONE bash process (variables carry over from block to block, doc
 * to doc) under `set -euo pipefail`, each group of commands with its own stdout and stderr files.
 *
 * `curl` is a shell function around the real one that records the HTTP status of every answer
 * (from `-D`, so the examples keep their own `-o`/`-w`) and the envelope's `error_code`. A group
 * whose answer is not 2xx fails unless its claimed output shows that status or that error code:
 * the docs' examples stay plain `curl -s`, and an error they show on purpose is one they print.
 */

const PRELUDE = String.raw`
set -euo pipefail
curl() {
  local headers body rc=0 status code
  headers=$(mktemp "$__parley_dir/headers.XXXXXX")
  body=$(mktemp "$__parley_dir/body.XXXXXX")
  # $PIPESTATUS is curl's own exit status; || true keeps errexit from ending the function first
  { command curl -D "$headers" "$@" | tee "$body"; rc=$PIPESTATUS; } || true
  status=$(awk '/^HTTP\//{s=$2} END{print s ? s : "000"}' "$headers")
  code=$(jq -r '.error_code? // empty' "$body" 2>/dev/null | head -n 1 || true)
  printf '%s\t%s\tcurl %s\n' "$status" "$code" "$*" >> "$__parley_dir/$__parley_group.status"
  rm -f "$headers" "$body"
  return "$rc"
}
`;

interface GroupRun {
  block: DocBlock;
  group: CommandGroup;
}

export interface ChainResult {
  /** one message per failed group; empty when every claim held */
  failures: string[];
  groupsRun: number;
  ms: number;
}

interface Answer {
  status: string;
  code: string;
  command: string;
}

/** Runs the blocks (skipped ones excluded by the caller) in order; stops at the first command that fails. */
export async function runChain(
  blocks: DocBlock[],
  options: { workDir: string; cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ChainResult> {
  const runs: GroupRun[] = blocks.flatMap((block) => commandGroups(block).map((group) => ({ block, group })));
  const dir = options.workDir;
  const script = [
    `__parley_dir=${shellQuote(dir)}`,
    PRELUDE,
    ...runs.map((run, n) =>
      [
        `__parley_group=${n}`,
        `echo ${n} > "$__parley_dir/current"`,
        '{',
        ...run.group.commands,
        `} > "$__parley_dir/${n}.out" 2> "$__parley_dir/${n}.err"`,
      ].join('\n'),
    ),
    'echo done > "$__parley_dir/current"',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'chain.sh'), script);

  const started = Date.now();
  const exit = await runBash(path.join(dir, 'chain.sh'), options);
  const ms = Date.now() - started;

  const failures: string[] = [];
  const current = fs.readFileSync(path.join(dir, 'current'), 'utf8').trim();
  const reached = current === 'done' ? runs.length : Number(current) + 1;
  for (let n = 0; n < reached; n++) {
    const { block, group } = runs[n];
    const out = read(dir, `${n}.out`);
    const err = read(dir, `${n}.err`);
    if (n === reached - 1 && current !== 'done') {
      failures.push(
        [
          `${block.doc}:${group.line} (sh block ${block.index}): ${exit.timedOut ? `did not finish within ${options.timeoutMs} ms` : `the shell stopped here (exit ${exit.code})`}`,
          `command:\n${indent(group.commands.join('\n'))}`,
          `stdout:\n${indent(out.trim() || '(nothing)')}`,
          `stderr:\n${indent((err + exit.stderr).trim() || '(nothing)')}`,
          ...answersNote(answers(dir, n)),
        ].join('\n'),
      );
      break;
    }
    const refused = answers(dir, n).filter((a) => !/^2\d\d$/.test(a.status) && !claimsAnswer(group.expected, a));
    if (refused.length > 0) {
      failures.push(
        [
          `${block.doc}:${group.line} (sh block ${block.index}): an answer was not 2xx, and the doc does not show it`,
          `command:\n${indent(group.commands.join('\n'))}`,
          ...answersNote(refused),
          `stdout:\n${indent(out.trim() || '(nothing)')}`,
        ].join('\n'),
      );
    }
    if (!matchesClaim(group.expected, out)) failures.push(describeMismatch(block, group, out, err));
  }
  return { failures, groupsRun: reached, ms };
}

/** A non-2xx answer is claimed when the doc prints its status or its error code. */
function claimsAnswer(expected: string | null, answer: Answer): boolean {
  if (expected === null) return false;
  return new RegExp(`\\b${answer.status}\\b`).test(expected) || (answer.code !== '' && expected.includes(answer.code));
}

function answers(dir: string, n: number): Answer[] {
  return read(dir, `${n}.status`)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [status, code, command] = line.split('\t');
      return { status, code, command };
    });
}

const answersNote = (list: Answer[]) =>
  list.length ? [`answers:\n${indent(list.map((a) => `${a.status} ${a.code || '-'}  ${a.command}`).join('\n'))}`] : [];

const read = (dir: string, name: string) =>
  fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), 'utf8') : '';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** bash in a process group of its own, so a bound can end it with whatever it started in the background. */
function runBash(
  script: string,
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const proc = spawn('bash', [script], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let timedOut = false;
    proc.stdout.resume();
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-proc.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut });
    });
  });
}
