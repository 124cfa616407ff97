import type { AlertState, Metric, Operator, WindowDuration } from './alert-rule.events';

export const WINDOW_MS: Record<WindowDuration, number> = { '5m': 5 * 60_000, '10m': 10 * 60_000, '60m': 60 * 60_000 };

/** What a rule's scope recorded in its window. */
export interface WindowData {
  /** turn latencies in ms, ascending (read only for the latency metrics) */
  latencies: number[];
  /** turns answered in the window */
  turns: number;
  apiErrors: number;
  functionErrors: number;
  crashes: number;
  calls: number;
}

/** Nearest-rank percentile of ascending values: exact, one of the samples. */
export function percentile(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/**
 * The metric over the window, or null when the window holds no data for it: no turns for the
 * latency percentiles, no calls for the volume, and no activity at all (neither turns nor calls)
 * for the error counts, which are absolute counts (interface.md: not rates).
 */
export function metricValue(metric: Metric, w: WindowData): number | null {
  const active = w.turns > 0 || w.calls > 0;
  switch (metric) {
    case 'turn_latency_p50':
      return w.latencies.length ? percentile(w.latencies, 50) : null;
    case 'turn_latency_p95':
      return w.latencies.length ? percentile(w.latencies, 95) : null;
    case 'call_volume':
      return w.calls > 0 ? w.calls : null;
    case 'api_errors':
      return active || w.apiErrors > 0 ? w.apiErrors : null;
    case 'function_errors':
      return active || w.functionErrors > 0 ? w.functionErrors : null;
    case 'call_crashes':
      return active || w.crashes > 0 ? w.crashes : null;
  }
}

function breaches(value: number, operator: Operator, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
  }
}

/** The state an evaluation puts a rule in (interface.md "Alert states"). */
export function stateFor(value: number | null, operator: Operator, threshold: number): AlertState {
  if (value === null) return 'no_data';
  return breaches(value, operator, threshold) ? 'alert' : 'ok';
}
