import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What analytics must remember of a conversation until it ends: where its figures go (its
 * project, environment, channel and start) and what decides its outcome. Everything a
 * conversation counts goes to the buckets of its start, so a bucket's turns and outcomes are
 * those of the conversations that started in it.
 */
@Entity('analytics_conversation')
export class AnalyticsConversationRow {
  @PrimaryColumn('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'project_id' }) projectId: string;
  @Column('text') environment: string;
  @Column('text') channel: string;
  @Column('bigint', { name: 'started_ms' }) startedMs: number;
  @Column('integer', { name: 'user_turns' }) userTurns: number;
  /** 1 once the agent handed off */
  @Column('integer', { name: 'handed_off' }) handedOff: number;
  /** 1 once it ended (an end is counted once) */
  @Column('integer') ended: number;
}

/**
 * One bucket's counters for one project, environment and channel: `size` `h` (an hour from
 * `start_ms`) or `d` (a UTC day). Every figure is written to both, so a 30-day daily series reads
 * 30 rows per channel and a 7-day hourly one 168. Durations and first responses are mergeable
 * sketches (src/platform/stats/log-histogram.ts), JSON text.
 */
@Entity('analytics_bucket')
export class AnalyticsBucketRow {
  @PrimaryColumn('text', { name: 'project_id' }) projectId: string;
  @PrimaryColumn('text') environment: string;
  @PrimaryColumn('text') size: string;
  @PrimaryColumn('bigint', { name: 'start_ms' }) startMs: number;
  @PrimaryColumn('text') channel: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('integer') conversations: number;
  @Column('integer') contained: number;
  @Column('integer') handoffs: number;
  @Column('integer') abandoned: number;
  @Column('integer', { name: 'not_connected' }) notConnected: number;
  @Column('integer') turns: number;
  @Column('integer', { name: 'ood_turns' }) oodTurns: number;
  @Column('text', { name: 'duration_ms' }) durationMs: string;
  @Column('text', { name: 'first_response_ms' }) firstResponseMs: string;
}

/** Turns that cited a topic, per topic and bucket. */
@Entity('analytics_topic')
export class AnalyticsTopicRow {
  @PrimaryColumn('text', { name: 'project_id' }) projectId: string;
  @PrimaryColumn('text') environment: string;
  @PrimaryColumn('text') size: string;
  @PrimaryColumn('bigint', { name: 'start_ms' }) startMs: number;
  @PrimaryColumn('text') channel: string;
  @PrimaryColumn('text') topic: string;
  @Column('integer') turns: number;
}

/** User inputs that cited no topic, normalised (unanswered.ts), per text and bucket. */
@Entity('analytics_unanswered')
export class AnalyticsUnansweredRow {
  @PrimaryColumn('text', { name: 'project_id' }) projectId: string;
  @PrimaryColumn('text') environment: string;
  @PrimaryColumn('text') size: string;
  @PrimaryColumn('bigint', { name: 'start_ms' }) startMs: number;
  @PrimaryColumn('text') channel: string;
  @PrimaryColumn('text') text: string;
  @Column('integer') count: number;
  @Column('text', { name: 'last_at' }) lastAt: string;
  @Column('text', { name: 'conversation_id' }) conversationId: string;
}

/**
 * Which unanswered texts each conversation gave: personal data, so erasing a conversation
 * (contract §24) must find and take back exactly its share of the counts above.
 */
@Entity('analytics_unanswered_turn')
@Index('analytics_unanswered_turn_conversation', ['conversationId'])
export class AnalyticsUnansweredTurnRow {
  @PrimaryGeneratedColumn('increment') id: number;
  @Column('text', { name: 'conversation_id' }) conversationId: string;
  @Column('bigint', { name: 'started_ms' }) startedMs: number;
  @Column('text') text: string;
  @Column('text') at: string;
}
