import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per external event id a conversation awaits (the `await_external_event` action). */
@Entity('awaited_external_event')
export class AwaitedExternalEventRow {
  @PrimaryColumn('text', { name: 'event_id' }) eventId: string;
  @Column('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text') name: string;
  @Column('text', { name: 'received_at', nullable: true }) receivedAt: string | null;
}
