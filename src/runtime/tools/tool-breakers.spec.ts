import { ToolBreakers } from './tool-breakers';

describe('ToolBreakers', () => {
  let now = 0;
  const breakers = () => new ToolBreakers({ failures: 3, cooldownMs: 1000 }, () => now);

  beforeEach(() => (now = 0));

  it('opens after N consecutive failures, and a success in between starts the count again', () => {
    const b = breakers();
    b.failed('k');
    b.failed('k');
    b.succeeded('k');
    b.failed('k');
    b.failed('k');
    expect(b.admit('k')).toBe(true);
    b.failed('k');
    expect(b.admit('k')).toBe(false);
    expect(b.admit('other')).toBe(true);
  });

  it('half-open after the cool-down: one trial; its failure reopens, its success closes', () => {
    const b = breakers();
    for (let i = 0; i < 3; i++) b.failed('k');
    now = 999;
    expect(b.admit('k')).toBe(false);
    now = 1000;
    expect(b.admit('k')).toBe(true);
    expect(b.admit('k')).toBe(false); // the trial is in flight
    b.failed('k');
    now = 1500;
    expect(b.admit('k')).toBe(false);
    now = 2000;
    expect(b.admit('k')).toBe(true);
    b.succeeded('k');
    expect(b.admit('k')).toBe(true);
    expect(b.isOpen('k')).toBe(false);
  });
});
