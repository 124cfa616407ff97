import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { badRequest } from '../platform/errors/domain-error';
import { ServerSecret } from '../platform/auth/server-secret';
import type { CursorPosition, ListFilters } from '../../projections/conversations/queries';

export type { CursorPosition };

interface Payload {
  /** the filters' fingerprint: a cursor only continues the listing it came from */
  f: string;
  s?: string;
  i?: string;
  o?: number;
}

const malformed = () =>
  badRequest('INVALID_CURSOR', 'cursor is malformed or was not issued for these filters; start again without it');

/**
 * Opaque, tamper-evident cursors (interface.md rule 2): the position and the filters' fingerprint,
 * base64url JSON, then an HMAC under the server secret. Clients cannot build or alter one, and a
 * cursor passed with other filters is refused instead of silently paging a different listing.
 */
@Injectable()
export class Cursors {
  constructor(private readonly secret: ServerSecret) {}

  encode(filters: ListFilters, agentId: string, position: CursorPosition): string {
    const payload: Payload =
      'after' in position
        ? { f: fingerprint(filters, agentId), s: position.after.startedAt, i: position.after.id }
        : { f: fingerprint(filters, agentId), o: position.offset };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, filters: ListFilters, agentId: string): CursorPosition {
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 2048) throw malformed();
    const body = cursor.slice(0, dot);
    const signature = cursor.slice(dot + 1);
    const expected = this.sign(body);
    if (!/^[0-9a-f]{40}$/.test(signature) || !ServerSecret.same(signature, expected)) throw malformed();
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw malformed();
    }
    if (payload.f !== fingerprint(filters, agentId)) throw malformed();
    if (typeof payload.s === 'string' && typeof payload.i === 'string')
      return { after: { startedAt: payload.s, id: payload.i } };
    if (typeof payload.o === 'number' && Number.isInteger(payload.o) && payload.o >= 0) return { offset: payload.o };
    throw malformed();
  }

  private sign(body: string): string {
    return this.secret.digest(`conversations-cursor:${body}`).slice(0, 40);
  }
}

function fingerprint(f: ListFilters, agentId: string): string {
  const canonical = JSON.stringify([
    agentId,
    f.startTime,
    f.endTime,
    f.clientEnv,
    [...f.channels].sort(),
    f.variantId,
    f.variantName,
    f.inProgress,
    f.search,
    f.sample,
    // last and only when given: the cursors issued before the filter existed still continue
    ...(f.outcomes.length > 0 ? [[...f.outcomes].sort()] : []),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}
