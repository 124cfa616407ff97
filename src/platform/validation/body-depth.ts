import { DomainError } from '../errors/domain-error';

/** How deep any body may nest: far beyond real payloads, far below what recursion survives. */
export const MAX_BODY_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when a JSON text nests objects/arrays deeper than `max`. One pass over the raw text (or its
 * UTF-8 bytes: the bytes counted are ASCII and never occur inside a multi-byte character), counting
 * brackets outside strings, before anything parses or walks it, so nothing here can overflow the
 * stack. Malformed text is left for the parser to refuse.
 */
export function jsonTooDeep(text: string | Uint8Array, max = MAX_BODY_DEPTH): boolean {
  if (typeof text === 'string') return fewOpenings(text, max) ? false : stringTooDeep(text, max);
  return fewOpenings(text, max) ? false : bytesTooDeep(text, max);
}

/**
 * A body with at most `max` opening brackets in all cannot nest deeper than `max`. Counted with
 * native indexOf (memchr speed), this settles almost every real body without the byte loop.
 */
function fewOpenings(text: string | Uint8Array, max: number): boolean {
  let count = 0;
  for (const open of typeof text === 'string' ? ['{', '['] : [OPEN_BRACE, OPEN_BRACKET]) {
    let at = (text as string).indexOf(open as string, 0);
    while (at !== -1) {
      if (++count > max) return false;
      at = (text as string).indexOf(open as string, at + 1);
    }
  }
  return true;
}

function stringTooDeep(text: string, max: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing the string opened at `open` (or the end of the text). */
function stringEnd(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; j > open && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

function bytesTooDeep(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = bytesStringEnd(bytes, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** As stringEnd, over bytes (a native indexOf jumps over the string's content). */
function bytesStringEnd(bytes: Uint8Array, open: number): number {
  let i = open + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, i);
    if (quote === -1) return bytes.length;
    let backslashes = 0;
    for (let j = quote - 1; j > open && bytes[j] === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

/**
 * True when an XML document nests elements deeper than `max`: one pass from tag to tag, skipping
 * comments, CDATA, processing instructions and declarations (their text may hold `<`), without
 * recursion. Malformed text is left for the XML reader to refuse.
 */
export function xmlTooDeep(xml: string, max = MAX_BODY_DEPTH): boolean {
  let depth = 0;
  let i = xml.indexOf('<');
  while (i !== -1 && i < xml.length) {
    let next: number;
    if (xml.startsWith('<!--', i)) next = skipPast(xml, i, '-->');
    else if (xml.startsWith('<![CDATA[', i)) next = skipPast(xml, i, ']]>');
    else if (xml.startsWith('<?', i)) next = skipPast(xml, i, '?>');
    else if (xml.startsWith('<!', i) || xml.startsWith('</', i)) {
      if (xml.charCodeAt(i + 1) === 0x2f) depth--;
      next = skipPast(xml, i, '>');
    } else {
      const end = tagEnd(xml, i);
      if (end === -1) return false;
      if (xml.charCodeAt(end - 1) !== 0x2f && ++depth > max) return true;
      next = end + 1;
    }
    if (next === -1) return false;
    i = xml.indexOf('<', next);
  }
  return false;
}

function skipPast(xml: string, from: number, terminator: string): number {
  const end = xml.indexOf(terminator, from);
  return end === -1 ? -1 : end + terminator.length;
}

/** The `>` ending the tag opened at `lt`, skipping quoted attribute values; -1 when unterminated. */
function tagEnd(xml: string, lt: number): number {
  let quote = 0;
  for (let j = lt + 1; j < xml.length; j++) {
    const c = xml.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return j;
  }
  return -1;
}

export const bodyTooDeep = () =>
  new DomainError('BODY_TOO_DEEP', `request body nests deeper than ${MAX_BODY_DEPTH} levels`, 400);
