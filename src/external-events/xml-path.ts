/**
 * The text of the first element at a dotted element path in an XML document, without a full XML
 * library: external systems send small, flat documents, and all we need is one value. Handles
 * attributes, self-closing tags, comments, CDATA, processing instructions, a doctype, namespace
 * prefixes (a path segment matches the local name or the prefixed one) and the five predefined
 * entities plus numeric character references. The path may start at the root element or below it.
 *
 * Returns undefined when the path is not there, and throws MalformedXml when the document does not
 * parse (unbalanced or unterminated tags).
 */

export class MalformedXml extends Error {}

interface Element {
  name: string;
  children: Element[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (match, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16)) ?? match;
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10)) ?? match;
    return ENTITIES[ref] ?? match;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

const NAME = /^[A-Za-z_][\w.:-]*/;

function parseXml(xml: string): Element {
  const root: Element = { name: '', children: [], text: '' };
  const stack: Element[] = [root];
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? xml.length : lt;
    if (textEnd > i) stack[stack.length - 1].text += decodeEntities(xml.slice(i, textEnd));
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      i = skipPast(xml, lt, '-->');
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt);
      if (end === -1) throw new MalformedXml('unterminated CDATA section');
      stack[stack.length - 1].text += xml.slice(lt + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<?', lt)) {
      i = skipPast(xml, lt, '?>');
    } else if (xml.startsWith('<!', lt)) {
      i = skipPast(xml, lt, '>');
    } else if (xml.startsWith('</', lt)) {
      const end = xml.indexOf('>', lt);
      if (end === -1) throw new MalformedXml('unterminated closing tag');
      const name = xml.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (!open || open === root || open.name !== name) throw new MalformedXml(`unexpected closing tag </${name}>`);
      i = end + 1;
    } else {
      const end = tagEnd(xml, lt);
      const inner = xml.slice(lt + 1, end);
      const selfClosing = inner.endsWith('/');
      const name = NAME.exec(inner)?.[0];
      if (!name) throw new MalformedXml('a tag without a name');
      const element: Element = { name, children: [], text: '' };
      stack[stack.length - 1].children.push(element);
      if (!selfClosing) stack.push(element);
      i = end + 1;
    }
  }
  if (stack.length !== 1) throw new MalformedXml(`unclosed element <${stack[stack.length - 1].name}>`);
  if (root.children.length !== 1) throw new MalformedXml('a document has exactly one root element');
  return root.children[0];
}

function skipPast(xml: string, from: number, terminator: string): number {
  const end = xml.indexOf(terminator, from);
  if (end === -1) throw new MalformedXml(`unterminated ${xml.slice(from, from + 4)}`);
  return end + terminator.length;
}

/** The `>` ending the tag opened at `lt`, skipping quoted attribute values. */
function tagEnd(xml: string, lt: number): number {
  let quote: string | null = null;
  for (let j = lt + 1; j < xml.length; j++) {
    const c = xml[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
  }
  throw new MalformedXml('unterminated tag');
}

const matches = (element: Element, segment: string) =>
  element.name === segment || element.name.slice(element.name.indexOf(':') + 1) === segment;

function walk(from: Element, segments: string[]): Element | undefined {
  let at: Element | undefined = from;
  for (const segment of segments) {
    at = at.children.find((child) => matches(child, segment));
    if (!at) return undefined;
  }
  return at;
}

export function xmlValueAt(xml: string, path: string): string | undefined {
  const root = parseXml(xml);
  const segments = path.split('.');
  const found = matches(root, segments[0]) ? walk(root, segments.slice(1)) : undefined;
  return (found ?? walk(root, segments))?.text;
}
