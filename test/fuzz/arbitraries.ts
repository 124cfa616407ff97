import fc from 'fast-check';
import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

/**
 * The hostile inputs of the route fuzz (issue 30): values, bodies, query strings and path ids. A
 * body case starts from a route's valid body and changes one thing, so most inputs pass the first
 * checks and reach the deciders; the rest replace the whole body or its framing.
 */

const BODY_LIMIT = 1024 * 1024;

/** What one request sends as its body: `text` (or `bytes`) with `contentType`; neither: no body. */
export interface BodyCase {
  label: string;
  text?: string;
  bytes?: Buffer;
  contentType?: string;
}

export interface QueryCase {
  label: string;
  /** the query string as sent, without `?` (already encoded, or deliberately not) */
  query: string;
}

export interface PathCase {
  label: string;
  /** each `:param`'s segment as sent (already encoded, or deliberately not) */
  values: Record<string, string>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------- values

const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uDBFF',
  '\uFFFE\uFFFF',
  '\u202Egnp.exe',
  '\u200B',
  'Ω≈ç√∫˜µ≤≥÷',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'ﷺ'.repeat(40),
  '\r\nX-Injected: 1',
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE account; --',
  '${7*7}{{7*7}}<%= 7*7 %>',
  '<script>alert(1)</script>',
  '%00%ff%ED%A0%80',
  'null',
  'undefined',
  'true',
  'NaN',
  '-0',
  '1e309',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  'all',
  '+15550100001',
  '2026-02-30T25:61:61Z',
  'x'.repeat(10_000),
];

/** Keys that have bitten JavaScript servers: prototype pollution and friends. */
const HOSTILE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  '\u0000',
  'a.b',
  '$where',
  '[0]',
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
);

const hostileScalar: fc.Arbitrary<Json> = fc.oneof(
  {
    arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, -0.000001, 2 ** 53 + 1, 1e308, -1e308, 4294967296),
    weight: 3,
  },
  { arbitrary: hostileString, weight: 3 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
);

/** An object whose own keys include one prototype-ish key (defined, not assigned: no pollution here). */
const protoObject: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom(...HOSTILE_KEYS), hostileScalar, fc.boolean())
  .map(([key, value, nest]) => {
    const object: Record<string, Json> = {};
    Object.defineProperty(object, key, {
      value: nest ? { polluted: value, isAdmin: true } : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return object;
  });

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: hostileScalar, weight: 6 },
  { arbitrary: fc.constantFrom<Json>([], {}, [null], [[]], { '': null }), weight: 2 },
  { arbitrary: fc.array(hostileScalar, { maxLength: 5 }), weight: 1 },
  { arbitrary: protoObject, weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 1 },
);

/**
 * Values too big or too deep to build as objects cheaply: a marker that `serialize` swaps for the
 * raw text. Huge strings sit just under and just over the 1 MiB body limit.
 */
interface RawValue {
  readonly rawLabel: string;
  readonly rawText: () => string;
}

const deepArray = (depth: number): RawValue => ({
  rawLabel: `array nested ${depth} deep`,
  rawText: () => '['.repeat(depth) + ']'.repeat(depth),
});
const deepObject = (depth: number): RawValue => ({
  rawLabel: `object nested ${depth} deep`,
  rawText: () => '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth),
});
const hugeString = (length: number, unit = 'x'): RawValue => ({
  rawLabel: `string of ${length} × ${JSON.stringify(unit)}`,
  rawText: () => JSON.stringify(unit.repeat(length)),
});

const RAW_VALUES: readonly RawValue[] = [
  deepArray(65),
  deepObject(65),
  deepArray(5_000),
  deepObject(5_000),
  deepArray(20_000),
  deepObject(20_000),
  hugeString(BODY_LIMIT - 4096),
  hugeString(BODY_LIMIT + 16),
  hugeString(Math.ceil(BODY_LIMIT / 2), 'é'),
  hugeString(Math.ceil(BODY_LIMIT / 3) - 2048, '😀'),
  { rawLabel: 'array of 30,000 nulls', rawText: () => `[${Array(30_000).fill('null').join(',')}]` },
  {
    rawLabel: 'object of 10,000 keys',
    rawText: () => `{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  },
];

const rawValue: fc.Arbitrary<RawValue> = fc.constantFrom(...RAW_VALUES);

const isRaw = (value: unknown): value is RawValue => typeof value === 'object' && value !== null && 'rawText' in value;

/** JSON text of a body that may hold RawValue markers anywhere (placeholders swapped after stringify). */
function serialize(value: unknown): string {
  const raws: RawValue[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (!isRaw(v)) return v;
    raws.push(v);
    return `\u0001RAW${raws.length - 1}\u0001`;
  });
  return raws.reduce((out, raw, i) => out.replace(`"\\u0001RAW${i}\\u0001"`, () => raw.rawText()), text);
}

const describe = (value: unknown): string => {
  if (isRaw(value)) return value.rawLabel;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
};

// ---------------------------------------------------------------- bodies

/** Top-level property names a DTO class declares to class-validator (`@Allow()` ones included). */
export function dtoFieldNames(type?: Type): string[] {
  if (!type) return [];
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/** Dotted paths of a valid body's fields, nested objects included (`responseSettings.greeting`). */
function bodyPaths(body: unknown, prefix = ''): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => [`${prefix}${key}`, ...bodyPaths(value, `${prefix}${key}.`)]);
}

const clone = <T>(value: T): T => structuredClone(value);

function setPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = clone(body);
  const keys = path.split('.');
  let node: Record<string, unknown> = out;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
  return out;
}

function removePath(body: Record<string, unknown>, path: string): Record<string, unknown> {
  const out = clone(body);
  const keys = path.split('.');
  let node: Record<string, unknown> | undefined = out;
  for (const key of keys.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
  if (node && typeof node === 'object') delete node[keys[keys.length - 1]];
  return out;
}

function withExtra(body: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = clone(body);
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const JSON_TYPE = 'application/json';

const MALFORMED_BODIES: readonly BodyCase[] = [
  { label: 'truncated JSON', text: '{"name": "x', contentType: JSON_TYPE },
  { label: 'trailing comma', text: '{"name": "x",}', contentType: JSON_TYPE },
  { label: 'bare NaN', text: 'NaN', contentType: JSON_TYPE },
  { label: 'JSON then garbage', text: '{} {}', contentType: JSON_TYPE },
  { label: 'duplicate keys, the last null', text: '{"name":"x","name":null}', contentType: JSON_TYPE },
  { label: 'NUL byte', text: '\u0000', contentType: JSON_TYPE },
  { label: 'byte-order mark then JSON', text: '\uFEFF{}', contentType: JSON_TYPE },
  {
    label: 'invalid UTF-8 inside a string',
    bytes: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    contentType: JSON_TYPE,
  },
  { label: 'JSON null', text: 'null', contentType: JSON_TYPE },
  { label: 'JSON string', text: '"x"', contentType: JSON_TYPE },
  { label: 'JSON number', text: '1e999', contentType: JSON_TYPE },
  { label: 'JSON array', text: '[{}]', contentType: JSON_TYPE },
  { label: 'empty body with a JSON content type', text: '', contentType: JSON_TYPE },
  { label: 'no body at all' },
  { label: 'whitespace only', text: ' \n\t ', contentType: JSON_TYPE },
  {
    label: '__proto__ at the top',
    text: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
    contentType: JSON_TYPE,
  },
];

const OTHER_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json-patch+json',
  'application/JSON',
  'text/json; charset=latin1',
  '',
  ';;;',
];

/**
 * Bodies for a route: `valid` is a body the route accepts (or undefined for none), `fields` the
 * property names its DTO declares. One change at a time, or a whole-body replacement.
 */
export function bodyCases(valid: Record<string, unknown> | undefined, fields: string[]): fc.Arbitrary<BodyCase> {
  const base = valid ?? {};
  const paths = [...new Set([...fields, ...bodyPaths(base)])];
  const json = (label: string, value: unknown): BodyCase => ({ label, text: serialize(value), contentType: JSON_TYPE });
  const anyValue: fc.Arbitrary<unknown> = fc.oneof(
    { arbitrary: hostileValue, weight: 5 },
    { arbitrary: rawValue, weight: 1 },
  );
  const cases: Array<{ arbitrary: fc.Arbitrary<BodyCase>; weight: number }> = [
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...HOSTILE_KEYS, 'extra_field'), anyValue)
        .map(([key, value]) =>
          json(`valid body + extra field ${JSON.stringify(key)} = ${describe(value)}`, withExtra(base, key, value)),
        ),
      weight: 2,
    },
    { arbitrary: anyValue.map((value) => json(`whole body = ${describe(value)}`, value)), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(...OTHER_CONTENT_TYPES)
        .map((type) => ({ label: `valid body as ${JSON.stringify(type)}`, text: serialize(base), contentType: type })),
      weight: 1,
    },
    { arbitrary: fc.constantFrom(...MALFORMED_BODIES), weight: 1 },
    { arbitrary: fc.constant(json('the valid body', base)), weight: 1 },
  ];
  if (paths.length > 0) {
    cases.push(
      {
        arbitrary: fc
          .tuple(fc.constantFrom(...paths), anyValue)
          .map(([path, value]) => json(`valid body with ${path} = ${describe(value)}`, setPath(base, path, value))),
        weight: 8,
      },
      {
        arbitrary: fc.constantFrom(...paths).map((path) => json(`valid body without ${path}`, removePath(base, path))),
        weight: 2,
      },
      {
        arbitrary: fc.constant(
          json('every field null', Object.fromEntries(paths.filter((p) => !p.includes('.')).map((p) => [p, null]))),
        ),
        weight: 1,
      },
    );
  }
  return fc.oneof(...cases);
}

// ---------------------------------------------------------------- queries

const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    // a lone surrogate cannot be percent-encoded as UTF-8: send what a broken client would
    return value.replace(/[\uD800-\uDFFF]/g, '%ED%A0%80');
  }
};

/** Query values as they reach the URL: encoded hostile strings, and raw percent soup. */
const hostileQueryValue: fc.Arbitrary<{ label: string; raw: string }> = fc.oneof(
  { arbitrary: hostileString.map((s) => ({ label: describe(s), raw: encode(s) })), weight: 4 },
  {
    arbitrary: fc
      .constantFrom('%', '%%', '%ZZ', '%00', '%ED%A0%80', '%FF%FE', '+', '%2B', 'a%26b%3Dc', 'x'.repeat(60_000))
      .map((raw) => ({ label: `raw ${describe(raw)}`, raw })),
    weight: 2,
  },
  {
    arbitrary: fc
      .constantFrom('-1', '0', '1e999', '99999999999999999999', '1.5', 'true', 'false', '[]', '{}')
      .map((raw) => ({ label: raw, raw })),
    weight: 2,
  },
);

const QUERY_GARBAGE: readonly string[] = [
  '%',
  '&&&',
  '=',
  '=x',
  'a==b',
  '__proto__[isAdmin]=1',
  'constructor[prototype][polluted]=1',
  '__proto__=x',
  'a[]=1&a[]=2',
  'a[b][c][d]=1',
  '%00=%00',
  '&'.repeat(5_000),
  `${'k=v&'.repeat(3_000)}k=v`,
];

/** Queries for a route: `valid` is a query it accepts, `names` every parameter it reads. */
export function queryCases(valid: Record<string, string>, names: string[]): fc.Arbitrary<QueryCase> {
  const all = [...new Set([...names, ...Object.keys(valid)])];
  const render = (params: Array<[string, string]>) => params.map(([k, v]) => `${encode(k)}=${v}`).join('&');
  const validPairs = Object.entries(valid).map(([k, v]) => [k, encode(v)] as [string, string]);
  const cases: Array<{ arbitrary: fc.Arbitrary<QueryCase>; weight: number }> = [
    { arbitrary: fc.constant({ label: 'the valid query', query: render(validPairs) }), weight: 2 },
    {
      arbitrary: fc.constantFrom(...QUERY_GARBAGE).map((g) => ({
        label: `valid query + ${describe(g)}`,
        query: [render(validPairs), g].filter(Boolean).join('&'),
      })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_KEYS, 'extra'), hostileQueryValue).map(([k, v]) => ({
        label: `valid query + ${JSON.stringify(k)}=${v.label}`,
        query: render([...validPairs, [k, v.raw]]),
      })),
      weight: 1,
    },
  ];
  if (all.length > 0) {
    cases.push(
      {
        arbitrary: fc.tuple(fc.constantFrom(...all), hostileQueryValue).map(([name, v]) => ({
          label: `${name}=${v.label}`,
          query: render([...validPairs.filter(([k]) => k !== name), [name, v.raw]]),
        })),
        weight: 5,
      },
      {
        arbitrary: fc.tuple(fc.constantFrom(...all), hostileQueryValue).map(([name, v]) => ({
          label: `${name} twice (the second ${v.label})`,
          query: render([...validPairs, [name, validPairs.find(([k]) => k === name)?.[1] ?? 'x'], [name, v.raw]]),
        })),
        weight: 2,
      },
      {
        arbitrary: fc.constantFrom(...all).map((name) => ({
          label: `valid query without ${name}`,
          query: render(validPairs.filter(([k]) => k !== name)),
        })),
        weight: 1,
      },
    );
  }
  return fc.oneof(...cases);
}

// ---------------------------------------------------------------- path ids

const HOSTILE_IDS: readonly string[] = [
  '%',
  '%00',
  '%ZZ',
  '%2F',
  '%2e%2e',
  '..',
  '.',
  '%ED%A0%80',
  '%FF',
  'ws-',
  'PROJECT-',
  'BRANCH-',
  'key_',
  'ar_',
  'null',
  'undefined',
  '0',
  '-1',
  'x'.repeat(4_000),
  '%20',
  "'%20OR%201=1--",
];

const hostileId: fc.Arbitrary<{ label: string; raw: string }> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_IDS).map((raw) => ({ label: `raw ${describe(raw)}`, raw })), weight: 2 },
  { arbitrary: hostileString.filter((s) => s !== '').map((s) => ({ label: describe(s), raw: encode(s) })), weight: 2 },
);

/** Each param a real id (most runs) or a hostile one; `real` names the fixture ids by param. */
export function pathCases(params: string[], real: Record<string, string>): fc.Arbitrary<PathCase> {
  if (params.length === 0) return fc.constant({ label: '', values: {} });
  const one = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constant({ label: '', raw: encode(real[name] ?? 'missing-fixture') }), weight: 3 },
      { arbitrary: hostileId.map((id) => ({ label: `:${name}=${id.label}`, raw: id.raw })), weight: 1 },
      ...(real[name]?.includes('-')
        ? [
            {
              arbitrary: fc.constant({
                label: `:${name} unprefixed`,
                raw: encode(real[name].replace(/^[A-Za-z]+-/, '')),
              }),
              weight: 1,
            },
          ]
        : []),
    );
  return fc.tuple(...params.map(one)).map((parts) => ({
    label: parts
      .map((p) => p.label)
      .filter(Boolean)
      .join(', '),
    values: Object.fromEntries(params.map((name, i) => [name, parts[i].raw])),
  }));
}
