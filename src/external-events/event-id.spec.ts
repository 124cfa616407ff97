import { bodyKindOf, extractEventId, type Delivery } from './event-id';

const delivery = (over: Partial<Delivery>): Delivery => ({
  location: 'payload',
  path: 'id',
  headers: {},
  query: {},
  kind: 'json',
  body: Buffer.alloc(0),
  ...over,
});
const body = (text: string) => Buffer.from(text);

describe('external event id extraction', () => {
  it('classifies the four content types (with parameters and +json/+xml suffixes) and refuses others', () => {
    expect(bodyKindOf('application/json; charset=utf-8')).toBe('json');
    expect(bodyKindOf('application/vnd.acme+json')).toBe('json');
    expect(bodyKindOf('application/x-www-form-urlencoded')).toBe('form');
    expect(bodyKindOf('application/xml')).toBe('xml');
    expect(bodyKindOf('text/xml')).toBe('xml');
    expect(bodyKindOf('application/soap+xml')).toBe('xml');
    expect(bodyKindOf('TEXT/PLAIN')).toBe('text');
    expect(bodyKindOf('application/octet-stream')).toBeNull();
    expect(bodyKindOf(undefined)).toBeNull();
  });

  it('reads a header by name in any case', () => {
    expect(
      extractEventId(delivery({ location: 'headers', path: 'X-Event-ID', headers: { 'x-event-id': ' e1 ' } })),
    ).toEqual({ ok: true, eventId: 'e1' });
    expect(extractEventId(delivery({ location: 'headers', path: 'X-Other' })).ok).toBe(false);
  });

  it('reads a query parameter', () => {
    expect(extractEventId(delivery({ location: 'querystring', path: 'ref', query: { ref: 'q1' } }))).toEqual({
      ok: true,
      eventId: 'q1',
    });
    expect(extractEventId(delivery({ location: 'querystring', path: 'ref', query: { ref: ['q2', 'q3'] } }))).toEqual({
      ok: true,
      eventId: 'q2',
    });
  });

  it('walks a JSON dotted path through objects and arrays; numbers are ids too', () => {
    const json = body(JSON.stringify({ a: { b: [{ c: 'j1' }], n: 42 } }));
    expect(extractEventId(delivery({ path: 'a.b.0.c', body: json }))).toEqual({ ok: true, eventId: 'j1' });
    expect(extractEventId(delivery({ path: 'a.n', body: json }))).toEqual({ ok: true, eventId: '42' });
    expect(extractEventId(delivery({ path: 'a.b', body: json }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_INVALID',
    });
    expect(extractEventId(delivery({ path: 'a.x.y', body: json }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_MISSING',
    });
    expect(extractEventId(delivery({ path: 'constructor', body: body('{}') }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_MISSING',
    });
    expect(extractEventId(delivery({ path: 'a', body: body('{"a":') }))).toMatchObject({
      ok: false,
      code: 'MALFORMED_BODY',
    });
  });

  it('reads a form field, names with dots included', () => {
    const form = body('status=ok&event.id=f%201&x=1');
    expect(extractEventId(delivery({ kind: 'form', path: 'event.id', body: form }))).toEqual({
      ok: true,
      eventId: 'f 1',
    });
    expect(extractEventId(delivery({ kind: 'form', path: 'nope', body: form })).ok).toBe(false);
  });

  it('walks an XML element path from the root or below it, with entities, CDATA, namespaces and attributes', () => {
    const xml = body(
      '<?xml version="1.0"?><!-- c --><ns:res xmlns:ns="u" a="x>y"><ns:meta><id>x&amp;1</id><cd><![CDATA[<2>]]></cd></ns:meta><e/></ns:res>',
    );
    expect(extractEventId(delivery({ kind: 'xml', path: 'res.meta.id', body: xml }))).toEqual({
      ok: true,
      eventId: 'x&1',
    });
    expect(extractEventId(delivery({ kind: 'xml', path: 'ns:meta.cd', body: xml }))).toEqual({
      ok: true,
      eventId: '<2>',
    });
    expect(extractEventId(delivery({ kind: 'xml', path: 'res.e', body: xml }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_MISSING',
    });
    expect(extractEventId(delivery({ kind: 'xml', path: 'a.b', body: body('<a><b>1</a>') }))).toMatchObject({
      ok: false,
      code: 'MALFORMED_BODY',
    });
    expect(extractEventId(delivery({ kind: 'xml', path: 'a', body: body('<a>1</a><b/>') }))).toMatchObject({
      ok: false,
      code: 'MALFORMED_BODY',
    });
  });

  it('takes a whole trimmed text/plain body when the path is empty, or a name=value line otherwise', () => {
    expect(extractEventId(delivery({ kind: 'text', path: '', body: body('  t1\n') }))).toEqual({
      ok: true,
      eventId: 't1',
    });
    expect(extractEventId(delivery({ kind: 'text', path: 'ref', body: body('status: ok\nref= t2') }))).toEqual({
      ok: true,
      eventId: 't2',
    });
    expect(extractEventId(delivery({ kind: 'text', path: '', body: body('   ') }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_MISSING',
    });
  });

  it('needs a path outside text/plain, and bounded printable ids', () => {
    expect(extractEventId(delivery({ path: '', body: body('{}') }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_MISSING',
    });
    expect(extractEventId(delivery({ kind: 'text', path: '', body: body('x'.repeat(300)) }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_INVALID',
    });
    expect(extractEventId(delivery({ kind: 'text', path: '', body: body('a\u0001b') }))).toMatchObject({
      ok: false,
      code: 'EXTERNAL_EVENT_ID_INVALID',
    });
  });
});
