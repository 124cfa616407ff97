import { routeDocs } from '../openapi/route-docs';
import { int, map, nullable, obj, str, time } from '../openapi/schema-helpers';
import { AuditExportController } from './audit-export.controller';
import { MAX_PAGE_EVENTS } from './export-query';

const eventLine = obj(
  { position: str, revision: int, type: str, occurred_at: time, data: map(), conversation_id: str },
  { actor: nullable(str) },
);
const endLine = obj({ end: { const: true }, next_cursor: nullable(str) });

export const auditExportDocs = routeDocs(AuditExportController, 'audit-export', {
  events: {
    summary: "A project's audit trail as NDJSON, one stored event a line",
    description:
      'Newline-delimited JSON (`application/x-ndjson`), not one JSON document: each line is one object of ' +
      "the schema below, the events of the project's conversations in log order, then a closing line " +
      '`{"end": true, "next_cursor": ...}` (`null`: the log was read to its head). An answer without the ' +
      "closing line was cut off: resume with `cursor` = the last line's `position`. Data access filtering " +
      'applies as on `/conversations/{conversationId}/events`.',
    query: [
      { name: 'start_time', description: 'ISO 8601 with a zone: events at or after it', schema: time },
      { name: 'end_time', description: 'ISO 8601 with a zone: events before it', schema: time },
      { name: 'cursor', description: 'a `position` or `next_cursor` handed out before: events after it', schema: str },
      {
        name: 'limit',
        description: `events in this answer, 1 to ${MAX_PAGE_EVENTS} (default 1000)`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_EVENTS },
      },
    ],
    responses: {
      200: {
        description: 'One JSON object a line: events, then the closing line',
        contentType: 'application/x-ndjson',
        schema: { anyOf: [eventLine, endLine] },
      },
    },
  },
});
