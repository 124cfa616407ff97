import { randomUUID } from 'node:crypto';
import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import { newTestEvent } from '../event-store.contract';
import { MissingPositionError, canonicalId, toEventData, toRecordedEvent } from './event-conversion';

function stored(overrides: Partial<ClientRecordedEvent> = {}): ClientRecordedEvent {
  return {
    streamId: 'ns-order-1',
    id: randomUUID(),
    isJson: true,
    revision: 3n,
    type: 'OrderPlaced',
    created: new Date(),
    data: { total: 3 },
    metadata: {
      schemaVersion: 1,
      actor: 'test',
      correlationId: 'c',
      causationId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
    },
    position: { commit: 900n, prepare: 880n },
    ...overrides,
  } as ClientRecordedEvent;
}

describe('toEventData', () => {
  it('writes a JSON event with the id, type, data and metadata as given', () => {
    const event = newTestEvent('OrderPlaced', { total: 3, lines: [{ sku: 'a' }] }, { tenant: 'acme' });
    expect(toEventData(event)).toEqual({
      id: event.id,
      contentType: 'application/json',
      type: 'OrderPlaced',
      data: event.data,
      metadata: event.metadata,
    });
  });

  it('writes ids in the canonical lower-case form the server hands back', () => {
    const event = newTestEvent();
    event.id = event.id.toUpperCase();
    expect(toEventData(event).id).toBe(event.id.toLowerCase());
    expect(canonicalId('ABCDEF01-0000-4000-8000-00000000000A')).toBe('abcdef01-0000-4000-8000-00000000000a');
  });

  it('refuses ids that are not UUIDs: the server stores 16 bytes', () => {
    expect(() => toEventData({ ...newTestEvent(), id: 'evt-1' })).toThrow(/UUID/);
    expect(() => toEventData({ ...newTestEvent(), id: '' })).toThrow(/UUID/);
  });

  it('refuses what JSON cannot hold before the client sees it (the client would hang on it)', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => toEventData(newTestEvent('Bad', circular))).toThrow(TypeError);
    expect(() => toEventData(newTestEvent('Bad', { n: 1n } as never))).toThrow(TypeError);
    expect(() => toEventData({ ...newTestEvent(), data: undefined })).toThrow(/data must be JSON/);
    expect(() => toEventData({ ...newTestEvent(), type: '' })).toThrow(/type is required/);
  });

  it('keeps JSON that is not an object (the client stringifies any of it)', () => {
    expect(toEventData(newTestEvent('Text', 'plain' as never)).data).toBe('plain');
    expect(toEventData(newTestEvent('Nothing', null as never)).data).toBeNull();
  });
});

describe('toRecordedEvent', () => {
  it('maps every field, bigint revision and $all position included, under the port stream name', () => {
    const event = stored();
    expect(toRecordedEvent(event, 'order-1')).toEqual({
      id: event.id,
      streamId: 'order-1',
      revision: 3n,
      position: '0000000000000384:0000000000000370',
      type: 'OrderPlaced',
      data: { total: 3 },
      metadata: event.metadata,
    });
    expect(typeof toRecordedEvent(event, 'order-1').revision).toBe('bigint');
  });

  it('keeps revisions past 2^53 exact', () => {
    expect(toRecordedEvent(stored({ revision: 2n ** 60n + 1n }), 's').revision).toBe(2n ** 60n + 1n);
  });

  it('fails loudly when the server gave no $all position (servers before 22.6 on stream reads)', () => {
    expect(() => toRecordedEvent(stored({ position: undefined }), 's')).toThrow(MissingPositionError);
    expect(() =>
      toRecordedEvent(stored({ position: { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n } }), 's'),
    ).toThrow(/22\.6/);
  });

  it('decodes JSON carried as bytes, and keeps other bytes as they are', () => {
    const json = stored({ isJson: false, data: Buffer.from('{"a":[1,2]}') } as never);
    expect(toRecordedEvent(json, 's').data).toEqual({ a: [1, 2] });
    const binary = new Uint8Array([0xff, 0x00, 0x01]);
    expect(toRecordedEvent(stored({ isJson: false, data: binary } as never), 's').data).toBe(binary);
  });

  it('reads absent or non-object metadata (events Parley did not write) as empty', () => {
    expect(toRecordedEvent(stored({ metadata: undefined }), 's').metadata).toEqual({});
    expect(toRecordedEvent(stored({ metadata: new Uint8Array([1, 2, 3]) }), 's').metadata).toEqual({});
    expect(toRecordedEvent(stored({ metadata: Buffer.from('{"actor":"x"}') as never }), 's').metadata).toEqual({
      actor: 'x',
    });
    expect(toRecordedEvent(stored({ metadata: ['a'] }), 's').metadata).toEqual({});
  });
});
