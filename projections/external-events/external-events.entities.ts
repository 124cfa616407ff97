import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per external event id a conversation awaits (the `await_external_event` action), with
 * the conversation's owner, so the webhook checks a delivery with one lookup.
 */
@Entity('awaited_external_event')
export class AwaitedExternalEventRow {
  @PrimaryColumn('text', { name: 'event_id' }) eventId: string;
  @Column('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text') name: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'received_at', nullable: true }) receivedAt: string | null;
}

/** Whose each conversation is: what an awaited row copies when the conversation awaits an id. */
@Entity('external_event_conversation')
export class ExternalEventConversationRow {
  @PrimaryColumn('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
}
