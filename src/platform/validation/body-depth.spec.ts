import { jsonTooDeep, MAX_BODY_DEPTH, xmlTooDeep } from './body-depth';

const nestedJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedXml = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);

describe('jsonTooDeep', () => {
  it('allows the limit and refuses one level past it, as text and as bytes', () => {
    for (const make of [nestedJson, nestedObject]) {
      expect(jsonTooDeep(make(MAX_BODY_DEPTH))).toBe(false);
      expect(jsonTooDeep(make(MAX_BODY_DEPTH + 1))).toBe(true);
      expect(jsonTooDeep(Buffer.from(make(MAX_BODY_DEPTH)))).toBe(false);
      expect(jsonTooDeep(Buffer.from(make(MAX_BODY_DEPTH + 1)))).toBe(true);
    }
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const body = JSON.stringify({ text: '['.repeat(1000), quoted: '\\"[[[[', more: '"{{{{' });
    expect(jsonTooDeep(body)).toBe(false);
    expect(jsonTooDeep(Buffer.from(body))).toBe(false);
    const deepAfterString = JSON.stringify({ s: 'x\\', v: JSON.parse(nestedJson(MAX_BODY_DEPTH)) });
    expect(jsonTooDeep(deepAfterString)).toBe(true);
    expect(jsonTooDeep(Buffer.from(deepAfterString))).toBe(true);
  });

  it('counts multi-byte text correctly as bytes', () => {
    const body = JSON.stringify({ 'é€😀': '😀['.repeat(100), n: JSON.parse(nestedJson(10)) });
    expect(jsonTooDeep(Buffer.from(body))).toBe(false);
  });

  it('scans a 100k-deep body without recursion', () => {
    expect(jsonTooDeep(nestedJson(100_000))).toBe(true);
    expect(jsonTooDeep(Buffer.from(nestedJson(100_000)))).toBe(true);
  });
});

describe('xmlTooDeep', () => {
  it('allows the limit and refuses one level past it', () => {
    expect(xmlTooDeep(nestedXml(MAX_BODY_DEPTH))).toBe(false);
    expect(xmlTooDeep(nestedXml(MAX_BODY_DEPTH + 1))).toBe(true);
    expect(xmlTooDeep(nestedXml(100_000))).toBe(true);
  });

  it('does not count self-closing tags, siblings, comments, CDATA or declarations', () => {
    const flat =
      '<?xml version="1.0"?><!DOCTYPE r><r>' +
      '<b/><c x="<a>"></c>'.repeat(500) +
      `<!-- ${'<a>'.repeat(100)} --><![CDATA[${'<a>'.repeat(100)}]]></r>`;
    expect(xmlTooDeep(flat)).toBe(false);
  });
});
