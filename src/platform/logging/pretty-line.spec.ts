import { prettyLine } from './pretty-line';

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: '2026-11-27T09:15:02.345Z', pid: 7, hostname: 'h', service: 'parley', ...fields });

describe('prettyLine', () => {
  it('shows time, level and message first, then the other fields as key=value', () => {
    expect(prettyLine(line({ msg: 'parley is listening', port: 8080, dataDir: '/var/lib/parley' }))).toBe(
      '09:15:02.345 INFO  parley is listening port=8080 dataDir=/var/lib/parley\n',
    );
  });

  it('names every pino level', () => {
    const labels = [10, 20, 30, 40, 50, 60].map((level) => prettyLine(line({ level, msg: 'm' })).split(' ')[1]);
    expect(labels).toEqual(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL']);
  });

  it('quotes values with spaces or quotes and writes objects as JSON', () => {
    expect(prettyLine(line({ msg: 'request', context: 'two words', req: { method: 'GET', url: '/x' } }))).toBe(
      '09:15:02.345 INFO  request context="two words" req={"method":"GET","url":"/x"}\n',
    );
  });

  it('puts an error stack or a trace on indented lines below', () => {
    const stack = 'Error: boom\n    at a (file.ts:1:1)';
    const text = prettyLine(line({ level: 50, msg: 'failed', err: { type: 'Error', message: 'boom', stack } }));
    expect(text).toBe('09:15:02.345 ERROR failed err=boom\n    Error: boom\n        at a (file.ts:1:1)\n');
    expect(prettyLine(line({ level: 50, msg: 'nest', trace: stack }))).toContain('\n    Error: boom\n');
  });

  it('colours the level only when asked', () => {
    expect(prettyLine(line({ level: 40, msg: 'slow' }), true)).toContain('\x1b[33mWARN \x1b[0m');
    expect(prettyLine(line({ level: 40, msg: 'slow' }))).not.toContain('\x1b[');
  });

  it('passes a line that is not a JSON object through unchanged', () => {
    expect(prettyLine('not json')).toBe('not json\n');
    expect(prettyLine('[1,2]\n')).toBe('[1,2]\n');
  });
});
