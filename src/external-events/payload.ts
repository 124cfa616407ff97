import type { BodyKind } from './event-id';

/**
 * What the agent's state holds for a received event, under `external_events.<name>`: the id, when
 * it arrived, its content type and a readable form of the body, so topics can use
 * `$state.external_events.payment.payload.status`. The bytes themselves stay untouched on the
 * event (`ExternalEventReceived.body`); this is a view of them, not a re-serialisation.
 * JSON: the parsed value; a form: its fields (a repeated field as a list); XML and text: the text.
 */
export function payloadState(
  eventId: string,
  contentType: string,
  kind: BodyKind,
  body: Buffer,
  receivedAt: string,
): Record<string, unknown> {
  return {
    event_id: eventId,
    received_at: receivedAt,
    content_type: contentType,
    payload: readablePayload(kind, body),
  };
}

function readablePayload(kind: BodyKind, body: Buffer): unknown {
  const text = body.toString('utf8');
  switch (kind) {
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    case 'form': {
      // no prototype: a field named __proto__ is just a field
      const fields: Record<string, string | string[]> = Object.create(null);
      for (const [key, value] of new URLSearchParams(text)) {
        const seen = fields[key];
        fields[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
      }
      return fields;
    }
    case 'xml':
    case 'text':
      return text;
  }
}
