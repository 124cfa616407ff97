import type { RecordedEvent } from './event-store.port';
import { START } from './position';
import { UpcasterRegistry } from './upcaster-registry';

const v1 = (data: unknown): RecordedEvent => ({
  id: 'e1',
  streamId: 's',
  revision: 0n,
  position: START,
  type: 'TurnRecorded',
  data,
  metadata: {
    schemaVersion: 1,
    actor: 'a',
    correlationId: 'c',
    causationId: null,
    occurredAt: '2026-01-01T00:00:00.000Z',
  },
});
const addsErrors = { type: 'TurnRecorded', fromVersion: 1, upcast: (d: object) => ({ ...d, apiErrors: 0 }) };

describe('UpcasterRegistry', () => {
  it('applies what the contexts registered, from every registration', () => {
    const registry = new UpcasterRegistry();
    registry.register([addsErrors]);
    registry.register([{ type: 'TurnRecorded', fromVersion: 2, upcast: (d: object) => ({ ...d, bargeIn: false }) }]);
    const event = registry.apply(v1({ text: 'hi' }));
    expect(event.data).toEqual({ text: 'hi', apiErrors: 0, bargeIn: false });
    expect(event.metadata.schemaVersion).toBe(3);
  });

  it('refuses a registration after the first read, which would have seen an old shape', () => {
    const registry = new UpcasterRegistry();
    expect(registry.apply(v1({ text: 'hi' })).data).toEqual({ text: 'hi' });
    expect(() => registry.register([addsErrors])).toThrow(/after the event store was first read/);
  });

  it('refuses two upcasters for one type and version, across registrations', () => {
    const registry = new UpcasterRegistry();
    registry.register([addsErrors]);
    expect(() => registry.register([addsErrors])).toThrow(/two upcasters/);
  });
});
