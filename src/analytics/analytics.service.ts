import { Inject, Injectable } from '@nestjs/common';
import { DataAccessService } from '../accounts/data-access.service';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { agentRef } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import {
  ANALYTICS_READ_MODEL,
  DAY_MS,
  HOUR_MS,
  analyticsQueries,
  type AnalyticsQueries,
  type AnalyticsScope,
} from '../../projections/analytics/queries';
import { parseAnalyticsQuery } from './analytics-query';
import { series, topicsView, unansweredView } from './analytics-series';

const TOP_TOPICS = 20;
const UNANSWERED = 50;

/** The Analytics API (contract §23) over the analytics read model. */
@Injectable()
export class AnalyticsService {
  private readonly queries: AnalyticsQueries;

  constructor(
    private readonly readModels: ReadModels,
    private readonly dataAccess: DataAccessService,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.queries = analyticsQueries(readModels);
  }

  async series(accountId: string, projectId: string, raw: Record<string, unknown>) {
    const query = parseAnalyticsQuery(raw, this.clock.nowMs());
    const bucketMs = query.granularity === 'hour' ? HOUR_MS : DAY_MS;
    const scope: AnalyticsScope = {
      projectId,
      environment: query.environment,
      channels: query.channels,
      size: query.granularity === 'hour' ? 'h' : 'd',
      fromMs: Math.floor(query.fromMs / bucketMs) * bucketMs,
      toMs: query.toMs,
    };
    // what the log held when the request came is counted: the figures are read-your-writes
    await this.readModels.waitFor(await this.store.headPosition(), [ANALYTICS_READ_MODEL]);
    const { showTranscripts } = await this.dataAccess.config(projectId);
    const [rows, topics, unanswered] = await Promise.all([
      this.queries.buckets(scope),
      this.queries.topTopics(scope, TOP_TOPICS),
      showTranscripts ? this.queries.unanswered(scope, UNANSWERED) : [],
    ]);
    return {
      account_id: accountId,
      project_id: agentRef(projectId),
      granularity: query.granularity,
      ...series(rows, query.fromMs, query.toMs, bucketMs),
      top_topics: topicsView(topics),
      unanswered: unansweredView(unanswered),
    };
  }
}
