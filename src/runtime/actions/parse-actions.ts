/**
 * A topic's `actions` text (contract §6): zero or more lines, each `name key=value key="quoted value"`.
 * Quotes allow spaces, `\"` is a quote and `\\` a backslash inside them. Blank lines and lines
 * starting with `#` are ignored. A malformed line is reported (with its 1-based number) and skipped;
 * the other lines still parse. Whether an action name is known is decided when it runs, not here.
 */

interface ParsedAction {
  name: string;
  args: Record<string, string>;
  /** 1-based line number in the actions text. */
  line: number;
}

interface ParseError {
  line: number;
  message: string;
}

export interface ParseResult {
  actions: ParsedAction[];
  errors: ParseError[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function isSpace(c: string): boolean {
  return /\s/.test(c);
}

class LineError extends Error {}

function parseLine(text: string): { name: string; args: Record<string, string> } {
  let i = 0;
  const skipSpaces = () => {
    while (i < text.length && isSpace(text[i])) i++;
  };
  const word = () => {
    const start = i;
    while (i < text.length && !isSpace(text[i]) && text[i] !== '=') i++;
    return text.slice(start, i);
  };

  skipSpaces();
  const name = word();
  if (i < text.length && text[i] === '=')
    throw new LineError(`expected an action name before the arguments, found "${name}="`);
  if (!NAME.test(name)) throw new LineError(`invalid action name "${name}"`);

  const args: Record<string, string> = Object.create(null);
  for (;;) {
    skipSpaces();
    if (i >= text.length) break;
    const keyAt = i;
    const key = word();
    if (i >= text.length || text[i] !== '=')
      throw new LineError(`expected key=value at column ${keyAt + 1}, found "${key}"`);
    if (!NAME.test(key)) throw new LineError(`invalid argument name "${key}" at column ${keyAt + 1}`);
    if (Object.prototype.hasOwnProperty.call(args, key)) throw new LineError(`argument "${key}" given twice`);
    i++; // '='
    let value = '';
    if (text[i] === '"') {
      const openAt = i;
      i++;
      let closed = false;
      while (i < text.length) {
        const c = text[i];
        if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
          value += text[i + 1];
          i += 2;
        } else if (c === '"') {
          closed = true;
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      if (!closed) throw new LineError(`unterminated quoted value for "${key}" (opened at column ${openAt + 1})`);
      if (i < text.length && !isSpace(text[i]))
        throw new LineError(`expected a space after the quoted value of "${key}" at column ${i + 1}`);
    } else {
      const start = i;
      while (i < text.length && !isSpace(text[i])) i++;
      value = text.slice(start, i);
    }
    args[key] = value;
  }
  return { name, args: { ...args } };
}

export function parseActions(text: string): ParseResult {
  const actions: ParsedAction[] = [];
  const errors: ParseError[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      const { name, args } = parseLine(line);
      actions.push({ name, args, line: n + 1 });
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      errors.push({ line: n + 1, message: error.message });
    }
  }
  return { actions, errors };
}
