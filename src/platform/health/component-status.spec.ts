import { ComponentStatus } from './component-status';

describe('ComponentStatus', () => {
  it('nests dotted names for /readyz, the last value set winning', () => {
    const status = new ComponentStatus();
    expect(status.report()).toEqual({});
    status.set('voice.vad', 'silero');
    status.set('voice.vad', 'energy');
    status.set('search', 'fts');
    expect(status.report()).toEqual({ search: { search: 'fts' }, voice: { vad: 'energy' } });
  });
});
