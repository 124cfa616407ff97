/**
 * LOG_FORMAT=pretty: one pino JSON line as a line a person reads at a terminal, time (UTC), level,
 * message, then the other fields as key=value. A stack or trace goes on the lines below. Pure, so
 * the JSON a machine would have read is what is shown, nothing more or less.
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** pino's own fields, shown in the line's head or, for every line the same, not at all */
const HEAD = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'service']);
const BARE = /^[^\s="\\]+$/;

export function prettyLine(json: string, colors = false): string {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `${json.trimEnd()}\n`;
  const fields = entry as Record<string, unknown>;
  const level = typeof fields.level === 'number' ? fields.level : 30;
  const label = (LEVELS[level] ?? `L${level}`).padEnd(5);
  const head = [
    clock(fields.time),
    colors && COLORS[level] ? `\x1b[${COLORS[level]}m${label}\x1b[0m` : label,
    typeof fields.msg === 'string' ? fields.msg : '',
  ];
  const pairs: string[] = [];
  const below: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (HEAD.has(key) || value === undefined) continue;
    const stack = stackOf(value);
    if (stack) {
      below.push(stack);
      const message = (value as { message?: unknown }).message;
      if (typeof message === 'string') pairs.push(`${key}=${shown(message)}`);
      continue;
    }
    pairs.push(`${key}=${shown(value)}`);
  }
  const line = [...head, ...pairs].filter((part) => part !== '').join(' ');
  return [line, ...below.map((text) => text.replace(/^/gm, '    '))].join('\n') + '\n';
}

/** `HH:MM:SS.mmm` of an ISO time (pino's isoTime); the raw value when it is not one. */
function clock(time: unknown): string {
  if (typeof time === 'string') return /T(\d\d:\d\d:\d\d(?:\.\d+)?)/.exec(time)?.[1] ?? time;
  if (typeof time === 'number') return new Date(time).toISOString().slice(11, 23);
  return '';
}

/** A multi-line trace (Nest's `trace`) or an error's stack (pino's `err` serializer). */
function stackOf(value: unknown): string | null {
  if (typeof value === 'string') return value.includes('\n    at ') ? value : null;
  if (typeof value === 'object' && value !== null && typeof (value as { stack?: unknown }).stack === 'string')
    return (value as { stack: string }).stack;
  return null;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return BARE.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
