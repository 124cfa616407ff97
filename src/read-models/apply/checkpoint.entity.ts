import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Lives in the read model's own file, so rows and checkpoint commit in one transaction. */
@Entity('projection_checkpoint')
export class ProjectionCheckpoint {
  @PrimaryColumn('text') name: string;
  @Column('integer') version: number;
  @Column('text') position: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
}
