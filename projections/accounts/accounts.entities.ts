import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('account')
export class AccountRow {
  @PrimaryColumn('text') id: string;
  @Column('text') name: string;
  @Column('text') region: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
}

@Entity('connector')
export class ConnectorRow {
  @PrimaryColumn('text') id: string;
  @Index() @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text') kind: string;
  @Column('text') environment: string;
  @Column('text', { name: 'host_domain', nullable: true }) hostDomain: string | null;
  @Index({ unique: true, where: 'token_digest IS NOT NULL' })
  @Column('text', { name: 'token_digest', nullable: true })
  tokenDigest: string | null;
  @Column('text', { name: 'sealed_webhook_secret', nullable: true }) sealedWebhookSecret: string | null;
  @Column('text', { name: 'created_at' }) createdAt: string;
}

@Entity('phone_number')
@Index(['agentId', 'environment'])
export class PhoneNumberRow {
  @PrimaryColumn('text') number: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text') environment: string;
  /** `main` or `dni` (contract §18) */
  @Column('text', { default: 'main' }) pool: string;
  @Column('text', { name: 'provisioned_at' }) provisionedAt: string;
}

@Entity('agent_settings')
export class AgentSettingsRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('boolean', { name: 'chunked_streaming' }) chunkedStreaming: boolean;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
}
