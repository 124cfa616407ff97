import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One messaging session: where it stands, for the live-agent desk (its queue and who holds what),
 * and which session a service agent conversation runs on (to push its delayed responses).
 */
@Entity('messaging_session')
@Index(['accountId', 'status'])
@Index(['liveAgentId', 'status'])
@Index(['conversationId'])
export class MessagingSessionRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'connector_id' }) connectorId: string;
  @Column('text') environment: string;
  /** open | agent | queued | live | ended (the session decider's phase) */
  @Column('text') status: string;
  @Column('text', { name: 'conversation_id', nullable: true }) conversationId: string | null;
  @Column('text', { name: 'handoff_id', nullable: true }) handoffId: string | null;
  @Column('text', { nullable: true }) destination: string | null;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('text', { name: 'queued_at', nullable: true }) queuedAt: string | null;
  @Column('text', { name: 'live_agent_id', nullable: true }) liveAgentId: string | null;
  @Column('text', { name: 'live_agent_name', nullable: true }) liveAgentName: string | null;
  @Column('text', { name: 'started_at' }) startedAt: string;
  @Column('text', { name: 'ended_at', nullable: true }) endedAt: string | null;
  @Column('text', { name: 'end_reason', nullable: true }) endReason: string | null;
}
