import type { RecordedEvent } from './event-store.port';
import { START } from './position';
import { Upcasters } from './upcasting';

const recorded = (type: string, data: unknown, schemaVersion: number): RecordedEvent => ({
  id: 'e1',
  streamId: 's',
  revision: 0n,
  position: START,
  type,
  data,
  metadata: {
    schemaVersion,
    actor: 'a',
    correlationId: 'c',
    causationId: null,
    occurredAt: '2026-01-01T00:00:00.000Z',
  },
});

describe('Upcasters', () => {
  const upcasters = new Upcasters([
    { type: 'TurnRecorded', fromVersion: 1, upcast: (d: { text: string }) => ({ userInput: d.text }) },
    { type: 'TurnRecorded', fromVersion: 2, upcast: (d: { userInput: string }) => ({ ...d, bargeIn: false }) },
  ]);

  it('lifts an old event through every later version, and says which version it now has', () => {
    const event = upcasters.apply(recorded('TurnRecorded', { text: 'hi' }, 1));
    expect(event.data).toEqual({ userInput: 'hi', bargeIn: false });
    expect(event.metadata.schemaVersion).toBe(3);
  });

  it('starts from the version the event was stored with', () => {
    expect(upcasters.apply(recorded('TurnRecorded', { userInput: 'x' }, 2)).data).toEqual({
      userInput: 'x',
      bargeIn: false,
    });
  });

  it('leaves current events and other types alone, without copying them', () => {
    const current = recorded('TurnRecorded', { userInput: 'x', bargeIn: true }, 3);
    expect(upcasters.apply(current)).toBe(current);
    const other = recorded('AgentCreated', { name: 'a' }, 1);
    expect(upcasters.apply(other)).toBe(other);
  });

  it('refuses two upcasters for the same type and version', () => {
    expect(
      () =>
        new Upcasters([
          { type: 'X', fromVersion: 1, upcast: (d) => d },
          { type: 'X', fromVersion: 1, upcast: (d) => d },
        ]),
    ).toThrow(/two upcasters/);
  });
});
