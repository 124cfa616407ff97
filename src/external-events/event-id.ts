import { MalformedXml, xmlValueAt } from './xml-path';

/**
 * Where an external event's id is found (contract §9, interface.md "External Events API"), purely:
 * a header (name in any case), a query parameter, or the body: a dotted path in JSON, a field of a
 * form, a dotted element path in XML, or the whole trimmed text of a `text/plain` body when the
 * path is empty. A failure names what was wrong; the caller answers 400 with it.
 */

export const EVENT_ID_LOCATIONS = ['headers', 'querystring', 'payload'] as const;
export type EventIdLocation = (typeof EVENT_ID_LOCATIONS)[number];

export type BodyKind = 'json' | 'form' | 'xml' | 'text';

export interface Delivery {
  location: EventIdLocation;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  kind: BodyKind;
  body: Buffer;
}

export type Extracted =
  | { ok: true; eventId: string }
  | { ok: false; code: 'EXTERNAL_EVENT_ID_MISSING' | 'EXTERNAL_EVENT_ID_INVALID' | 'MALFORMED_BODY'; message: string };

/** Ids are opaque, but bounded and printable: they name a stream and appear in logs. */
const MAX_EVENT_ID_LENGTH = 256;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The body kind of a Content-Type header value; null for a type the endpoint does not take. */
export function bodyKindOf(contentType: string | undefined): BodyKind | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/xml' || type === 'text/xml' || /^application\/[\w.+-]+\+xml$/.test(type)) return 'xml';
  if (type === 'text/plain') return 'text';
  return null;
}

const missing = (message: string): Extracted => ({ ok: false, code: 'EXTERNAL_EVENT_ID_MISSING', message });
const malformed = (message: string): Extracted => ({ ok: false, code: 'MALFORMED_BODY', message });

export function extractEventId(d: Delivery): Extracted {
  const path = d.path.trim();
  if (path === '' && !(d.location === 'payload' && d.kind === 'text')) {
    return missing('event_id_path is empty; it may be empty only for a text/plain payload');
  }
  let raw: unknown;
  switch (d.location) {
    case 'headers':
      raw = d.headers[path.toLowerCase()];
      if (Array.isArray(raw)) raw = raw[0];
      break;
    case 'querystring':
      raw = d.query[path];
      if (Array.isArray(raw)) raw = raw[0];
      break;
    case 'payload': {
      const result = fromBody(d.kind, d.body, path);
      if ('ok' in result) return result;
      raw = result.value;
      break;
    }
  }
  return validate(raw, d.location, path);
}

function fromBody(kind: BodyKind, body: Buffer, path: string): { value: unknown } | Extracted {
  const text = body.toString('utf8');
  switch (kind) {
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return malformed('the body is not valid JSON');
      }
      return { value: jsonValueAt(parsed, path) };
    }
    case 'form':
      return { value: new URLSearchParams(text).get(path) ?? undefined };
    case 'xml':
      try {
        return { value: xmlValueAt(text, path) };
      } catch (error) {
        return malformed(
          `the body is not well-formed XML: ${error instanceof MalformedXml ? error.message : 'unreadable'}`,
        );
      }
    case 'text':
      return { value: path === '' ? text : textField(text, path) };
  }
}

/** A dotted path through objects (own keys only) and arrays (numeric segments). */
function jsonValueAt(value: unknown, path: string): unknown {
  let at = value;
  for (const segment of path.split('.')) {
    if (Array.isArray(at) && /^\d+$/.test(segment)) at = at[Number(segment)];
    else if (at !== null && typeof at === 'object' && Object.prototype.hasOwnProperty.call(at, segment))
      at = (at as Record<string, unknown>)[segment];
    else return undefined;
  }
  return at;
}

/** With a path, a text body is read as `name=value` or `name: value` lines. */
function textField(text: string, path: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (match && match[1] === path) return match[2];
  }
  return undefined;
}

function validate(raw: unknown, location: EventIdLocation, path: string): Extracted {
  const where = path === '' ? 'the text body' : `${location} at ${JSON.stringify(path)}`;
  if (raw === undefined || raw === null) return missing(`no external event id in ${where}`);
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    return {
      ok: false,
      code: 'EXTERNAL_EVENT_ID_INVALID',
      message: `the external event id in ${where} must be a string or a number`,
    };
  }
  const id = String(raw).trim();
  if (id === '') return missing(`the external event id in ${where} is empty`);
  if (id.length > MAX_EVENT_ID_LENGTH || CONTROL.test(id)) {
    return {
      ok: false,
      code: 'EXTERNAL_EVENT_ID_INVALID',
      message: `the external event id in ${where} must be printable and at most ${MAX_EVENT_ID_LENGTH} characters`,
    };
  }
  return { ok: true, eventId: id };
}
