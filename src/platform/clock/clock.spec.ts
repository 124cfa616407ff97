import { ManualClock, SystemClock } from './clock';

describe('ManualClock', () => {
  it('stands still until advanced, then tells its listeners', () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const seen: string[] = [];
    clock.onAdvance(() => seen.push(clock.nowIso()));
    expect(clock.nowIso()).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(90);
    expect(seen).toEqual(['2026-01-01T00:01:30.000Z']);
  });

  it('never goes backwards', () => {
    expect(() => new ManualClock().advance(-1)).toThrow(RangeError);
  });
});

describe('SystemClock', () => {
  afterEach(() => jest.restoreAllMocks());

  it('formats each millisecond once, and a new one as soon as it comes', () => {
    const clock = new SystemClock();
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-26T10:00:00.001Z'));
    const format = jest.spyOn(Date.prototype, 'toISOString');
    expect(clock.nowIso()).toBe('2026-11-26T10:00:00.001Z');
    expect(clock.nowIso()).toBe('2026-11-26T10:00:00.001Z');
    expect(format).toHaveBeenCalledTimes(1);
    now.mockReturnValue(Date.parse('2026-11-26T10:00:00.002Z'));
    expect(clock.nowIso()).toBe('2026-11-26T10:00:00.002Z');
    expect(format).toHaveBeenCalledTimes(2);
  });
});
