/**
 * Reads the shell examples out of a Markdown document and checks what they print against what the
 * text claims. Pure: no files, no processes (doc-runner.ts runs them).
 *
 * Conventions (CONTRIBUTING.md, "Doc examples are tests"):
 * - every fenced block whose info string is `sh` is an example, run in order with the blocks
 *   before it (variables carry over);
 * - `<!-- not run: why -->` as the last non-blank line before the fence marks one that cannot run
 *   here (it starts a server, needs Docker, ...); the test counts and prints those;
 * - `#` lines right under a command (no blank line between) are what the commands since the
 *   previous such claim printed; `…` in them stands for any run of characters; a `#` line at the
 *   start of a block or after a blank line is a comment for the reader.
 */

export interface DocBlock {
  doc: string;
  /** 1-based, among the doc's sh blocks */
  index: number;
  /** 1-based line of the opening fence */
  line: number;
  text: string;
  /** the `not run` marker's reason, when the block is marked */
  skip: string | null;
}

/** Commands run together, and what the doc says they print (null: nothing is claimed). */
export interface CommandGroup {
  /** 1-based line in the doc of the group's first command */
  line: number;
  commands: string[];
  expected: string | null;
}

const FENCE = /^```(\S*)\s*$/;
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

export function extractBlocks(doc: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end].trimEnd() !== '```') end++;
    if (open[1] === 'sh') {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      const marker = before >= 0 ? NOT_RUN.exec(lines[before].trim()) : null;
      blocks.push({
        doc,
        index: blocks.length + 1,
        line: i + 1,
        text: lines.slice(i + 1, end).join('\n'),
        skip: marker ? marker[1] : null,
      });
    }
    i = end;
  }
  return blocks;
}

/**
 * Whether `text` is a whole shell command or still open: inside quotes, a `$(`, or after a
 * trailing backslash. A small lexer, enough for the docs' examples (no heredocs).
 */
export function isOpen(text: string): boolean {
  // what encloses the current character: a double quote or a $( ... ), innermost last
  const stack: Array<'"' | '$('> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack.at(-1);
    if (c === '\\') {
      if (i === text.length - 1) return true;
      i++;
    } else if (c === '$' && text[i + 1] === '(') {
      stack.push('$(');
      i++;
    } else if (top === '"') {
      if (c === '"') stack.pop();
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return true;
      i = close;
    } else if (c === '"') stack.push('"');
    else if (c === ')' && top === '$(') stack.pop();
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const newline = text.indexOf('\n', i);
      if (newline < 0) break;
      i = newline;
    }
  }
  // a line ending in a pipe or && goes on on the next one
  return stack.length > 0 || /(\||&&)\s*$/.test(text);
}

/** Splits a block into groups of commands, each with the output claimed under its last command. */
export function commandGroups(block: Pick<DocBlock, 'text' | 'line'>): CommandGroup[] {
  const lines = block.text.split('\n');
  const groups: CommandGroup[] = [];
  let current: CommandGroup | null = null;
  let lastWasCommand = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      lastWasCommand = false;
      continue;
    }
    if (/^\s*#/.test(line)) {
      if (lastWasCommand && current) {
        const claim: string[] = [];
        while (i < lines.length && /^\s*#/.test(lines[i])) claim.push(lines[i++].replace(/^\s*# ?/, ''));
        i--;
        current.expected = claim.join('\n');
        groups.push(current);
        current = null;
      }
      lastWasCommand = false;
      continue;
    }
    let command = line;
    const first = i;
    while (isOpen(command) && i + 1 < lines.length) command += `\n${lines[++i]}`;
    if (isOpen(command))
      throw new Error(
        `line ${block.line + 1 + first}: the command never closes (a quote, a $( or a trailing backslash)`,
      );
    current ??= { line: block.line + 1 + first, commands: [], expected: null };
    current.commands.push(command);
    lastWasCommand = true;
  }
  if (current) groups.push(current);
  return groups;
}

/** Lines compared without their surrounding blanks: column padding (`uniq -c`) is not a claim. */
const normalize = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n+$/, '');

/**
 * Whether `actual` is what `expected` claims: the same lines (blanks around them aside), where `…`
 * matches any run of characters. A group that claims nothing must print nothing.
 */
export function matchesClaim(expected: string | null, actual: string): boolean {
  const got = normalize(actual);
  if (expected === null) return got === '';
  const pattern = normalize(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(got);
}

/** A readable account of one failed claim. */
export function describeMismatch(block: DocBlock, group: CommandGroup, actual: string, stderr = ''): string {
  return [
    `${block.doc}:${group.line} (sh block ${block.index}, line ${block.line}): the output differs from what the doc claims`,
    `command:\n${indent(group.commands.join('\n'))}`,
    `expected:\n${indent(group.expected ?? '(nothing)')}`,
    `got:\n${indent(normalize(actual) || '(nothing)')}`,
    ...(stderr.trim() ? [`stderr:\n${indent(stderr.trim())}`] : []),
  ].join('\n');
}

export const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
