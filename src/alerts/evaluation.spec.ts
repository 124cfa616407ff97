import { metricValue, percentile, stateFor, type WindowData } from './evaluation';

const empty: WindowData = { latencies: [], turns: 0, apiErrors: 0, functionErrors: 0, crashes: 0, calls: 0 };

describe('alert evaluation', () => {
  it('percentiles are exact nearest-rank values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
  });

  it('each metric over a window, null without data', () => {
    const w: WindowData = {
      latencies: [100, 200, 300, 400, 2000],
      turns: 5,
      apiErrors: 3,
      functionErrors: 1,
      crashes: 0,
      calls: 4,
    };
    expect(metricValue('turn_latency_p50', w)).toBe(300);
    expect(metricValue('turn_latency_p95', w)).toBe(2000);
    expect(metricValue('api_errors', w)).toBe(3);
    expect(metricValue('function_errors', w)).toBe(1);
    expect(metricValue('call_crashes', w)).toBe(0);
    expect(metricValue('call_volume', w)).toBe(4);
    for (const metric of [
      'turn_latency_p50',
      'turn_latency_p95',
      'api_errors',
      'function_errors',
      'call_crashes',
      'call_volume',
    ] as const)
      expect(metricValue(metric, empty)).toBeNull();
    // errors are counted even in a window with no other activity
    expect(metricValue('api_errors', { ...empty, apiErrors: 2 })).toBe(2);
  });

  it('states: ok below, alert at the threshold (counts are absolute), no_data without data', () => {
    expect(stateFor(9, '>=', 10)).toBe('ok');
    expect(stateFor(10, '>=', 10)).toBe('alert');
    expect(stateFor(10, '>', 10)).toBe('ok');
    expect(stateFor(0, '<', 1)).toBe('alert');
    expect(stateFor(1, '<=', 1)).toBe('alert');
    expect(stateFor(null, '>=', 0)).toBe('no_data');
  });
});
