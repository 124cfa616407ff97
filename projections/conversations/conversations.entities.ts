import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One row per conversation: the columns the list filters and orders on, and the whole folded
 * summary (src/conversations/conversation-view.ts) as JSON for everything else.
 */
@Entity('conversation')
@Index('conversation_list', ['agentId', 'environment', 'startedAt', 'id'])
@Index('conversation_shared_id', ['agentId', 'sharedId'])
export class ConversationRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text') environment: string;
  @Column('text') channel: string;
  @Column('text', { name: 'variant_id' }) variantId: string;
  @Column('text', { name: 'variant_name' }) variantName: string;
  @Column('text', { name: 'started_at' }) startedAt: string;
  @Column('boolean', { name: 'in_progress' }) inProgress: boolean;
  @Column('text', { name: 'shared_id' }) sharedId: string;
  @Column('integer', { name: 'num_turns' }) numTurns: number;
  /** post-call analysis's outcome (contract §24), null until the conversation is analysed */
  @Column('text', { nullable: true }) outcome: string | null;
  @Column('text') summary: string;
}

/**
 * One row per turn. The integer id is the rowid the full-text index points at (an alias of it, so
 * it never changes); the texts are columns for that index, the rest of the turn is JSON, the
 * metadata apart since most reads skip it.
 */
@Entity('conversation_turn')
@Index('conversation_turn_order', ['conversationId', 'turnIndex'], { unique: true })
export class ConversationTurnRow {
  @PrimaryGeneratedColumn('increment') id: number;
  @Column('text', { name: 'conversation_id' }) conversationId: string;
  @Column('integer', { name: 'turn_index' }) turnIndex: number;
  @Column('text', { name: 'user_input' }) userInput: string;
  @Column('text', { name: 'agent_response' }) agentResponse: string;
  /** the turn without its metadata (src/conversations/conversation-view.ts TurnView) */
  @Column('text') turn: string;
  /** the debug chat metadata of the turn: read only for include_turn_metadata */
  @Column('text') metadata: string;
}
