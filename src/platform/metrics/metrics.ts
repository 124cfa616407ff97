import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), on a registry of its own so several apps in one
 * process (tests, benchmarks) never share counters. Collected where things happen; the gauges that
 * describe state (projection lag) are refreshed when scraped.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'parley_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly appendDuration = new Histogram({
    name: 'parley_event_store_append_duration_seconds',
    help: 'Time from append to acknowledgement (durable), group commit included',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly commitSize = new Histogram({
    name: 'parley_event_store_group_commit_appends',
    help: 'Appends written by one commit (group commit)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [this.registry],
  });
  readonly projectionLag = new Gauge({
    name: 'parley_projection_lag_events',
    help: 'Events in the log a projection has not applied yet (-1: too many to count)',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });
  readonly processManagerLag = new Gauge({
    name: 'parley_process_manager_lag_events',
    help: 'Events in the log a process manager run here has not read yet (-1: too many to count)',
    labelNames: ['process_manager'] as const,
    registers: [this.registry],
  });
  readonly deadLetters = new Counter({
    name: 'parley_dead_letters_total',
    help: 'Events dead-lettered (set aside after their handler kept failing), by kind (projection, process-manager, timer) and name',
    labelNames: ['kind', 'name'] as const,
    registers: [this.registry],
  });
  readonly openDeadLetters = new Gauge({
    name: 'parley_dead_letters_open',
    help: 'Dead letters not resolved yet, by kind and name',
    labelNames: ['kind', 'name'] as const,
    registers: [this.registry],
  });
  readonly alertEvaluations = new Counter({
    name: 'parley_alert_evaluation_rounds_total',
    help: 'Alert evaluation rounds run',
    registers: [this.registry],
  });
  readonly alertRulesEvaluated = new Counter({
    name: 'parley_alert_rules_evaluated_total',
    help: 'Alert rules evaluated, summed over rounds',
    registers: [this.registry],
  });
  readonly alertEvaluationDuration = new Histogram({
    name: 'parley_alert_evaluation_duration_seconds',
    help: 'Time an evaluation round took',
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'parley_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    // the process itself: CPU, memory, event loop lag, GC
    collectDefaultMetrics({ register: this.registry, prefix: 'parley_' });
  }
}
