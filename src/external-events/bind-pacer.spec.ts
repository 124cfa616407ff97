import type { RecordedEvent } from '../event-store/event-store.port';
import { BindPacer, type BindPacing } from './bind-pacer';

const PACING: BindPacing = { maxDelayMs: 30_000, behindMs: 250, saturatedAt: 0.75, quietMs: 100, busyInFlight: 8 };
const T0 = Date.parse('2026-11-23T12:00:00.000Z');

function delivery(deliveredAtMs: number, type = 'ExternalEventDelivered'): RecordedEvent {
  return {
    id: 'e',
    streamId: 's',
    revision: 0n,
    position: '1' as never,
    type,
    data: { deliveredAt: new Date(deliveredAtMs).toISOString() },
    metadata: {} as never,
  };
}

describe('BindPacer: binding waits only while the webhook is busy, binding is behind and the process is saturated (loop or senders)', () => {
  let wall: number;
  let platform: number;
  let utilization: number;
  let pacer: BindPacer;
  const make = (pacing: BindPacing = PACING) =>
    new BindPacer(
      pacing,
      () => platform,
      () => utilization,
      () => wall,
    );

  beforeEach(() => {
    wall = 1_000;
    platform = T0;
    utilization = 0.95;
    pacer = make();
  });

  it('a quiet webhook never holds binding back', () => {
    const batch = [delivery(T0 - 5_000)];
    expect(pacer.delayMs(batch)).toBe(0); // no delivery yet
    pacer.intake();
    wall += PACING.quietMs;
    expect(pacer.delayMs(batch)).toBe(0);
  });

  it('a busy, saturated webhook holds a batch that is behind until its oldest delivery has waited maxDelayMs', () => {
    pacer.intake();
    wall += 5;
    expect(pacer.delayMs([delivery(T0 - 1_000), delivery(T0 - 10)])).toBe(29_000);
    expect(pacer.delayMs([delivery(T0 - PACING.maxDelayMs)])).toBe(0);
    expect(pacer.delayMs([delivery(T0 - PACING.maxDelayMs - 1)])).toBe(0);
  });

  it('binding that keeps up binds as deliveries come, however busy the webhook is', () => {
    pacer.intake();
    expect(pacer.delayMs([delivery(T0 - PACING.behindMs + 1)])).toBe(0);
    expect(pacer.delayMs([delivery(T0 - PACING.behindMs)])).toBeGreaterThan(0);
  });

  it('spare time goes to binding: below the saturation mark it binds', () => {
    pacer.intake();
    utilization = 0.74;
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(0);
    utilization = 0.75;
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBeGreaterThan(0);
  });

  it('senders queueing on the webhook count as saturated, however idle the event loop reads', () => {
    utilization = 0.3;
    const answers = Array.from({ length: PACING.busyInFlight - 1 }, () => pacer.intake());
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(0);
    answers.push(pacer.intake());
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(29_000);
    // answered, the peak holds through the window after this one, then fades
    for (const answered of answers) answered();
    wall += 100;
    pacer.intake()();
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(29_000);
    wall += 100;
    pacer.intake()();
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(0);
  });

  it('a delivery answered twice leaves flight once; busyInFlight 0 judges by utilization alone', () => {
    utilization = 0.3;
    const answers = Array.from({ length: PACING.busyInFlight }, () => pacer.intake());
    answers[0]();
    answers[0]();
    // two windows on, the peak is what is still in flight (7), and one more delivery makes 8
    wall += 200;
    pacer.intake();
    expect(pacer.delayMs([delivery(T0 - 1_000)])).toBe(29_000);

    const byLoop = make({ ...PACING, busyInFlight: 0 });
    for (let i = 0; i < 20; i++) byLoop.intake();
    expect(byLoop.delayMs([delivery(T0 - 1_000)])).toBe(0);
    utilization = 0.75;
    expect(byLoop.delayMs([delivery(T0 - 1_000)])).toBeGreaterThan(0);
  });

  it('maxDelayMs 0 turns pacing off; a batch with no delivery in it is never held', () => {
    const off = make({ ...PACING, maxDelayMs: 0 });
    off.intake();
    expect(off.delayMs([delivery(T0 - 1_000)])).toBe(0);
    pacer.intake();
    expect(pacer.delayMs([delivery(T0 - 1_000, 'SomethingElse')])).toBe(0);
  });

  it('a delivery time it cannot read counts as overdue (binds at once)', () => {
    pacer.intake();
    const unreadable = { ...delivery(T0), data: { deliveredAt: 'not a time' } };
    expect(pacer.delayMs([unreadable])).toBe(0);
  });
});
