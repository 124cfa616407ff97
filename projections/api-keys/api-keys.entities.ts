import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One row per key ever created; deleted keys stay (with deleted_at) so lists and audits agree. */
@Entity('api_key')
export class ApiKeyRow {
  @PrimaryColumn('text') id: string;
  @Index() @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text') name: string;
  /** JSON: "all" or an array of bare agent ids */
  @Column('text') agents: string;
  /** JSON array of permissions */
  @Column('text') permissions: string;
  @Column('text', { name: 'expires_at' }) expiresAt: string;
  @Index({ unique: true }) @Column('text', { name: 'key_digest' }) keyDigest: string;
  @Column('text') last4: string;
  @Column('text', { name: 'issued_by' }) issuedBy: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'deleted_at', nullable: true }) deletedAt: string | null;
}
