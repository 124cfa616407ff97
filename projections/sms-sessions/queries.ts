import type { DataSource } from 'typeorm';
import type { Plain, ReadModelSources } from '../query-kit';
import { SmsMessageRow } from './sms-sessions.entities';
import { SMS_SESSIONS_READ_MODEL } from './name';

type SmsMessage = Plain<SmsMessageRow>;

/** The sms-sessions read model's queries. */
export interface SmsSessionsQueries {
  /** The latest `limit` messages to or from `number` (all numbers when null), oldest first. */
  latestMessages(number: string | null, limit: number): Promise<SmsMessage[]>;
}

class SmsSessionsReadModel implements SmsSessionsQueries {
  constructor(private readonly source: () => DataSource) {}

  async latestMessages(number: string | null, limit: number) {
    const query = this.source().getRepository(SmsMessageRow).createQueryBuilder('m');
    if (number) query.where('m.to_number = :number OR m.from_number = :number', { number });
    const rows = await query.orderBy('m.seq', 'DESC').limit(limit).getMany();
    return rows.reverse();
  }
}

/** The sms-sessions read model's queries on whichever generation serves now (one implementation for both databases). */
export function smsSessionsQueries(readModels: ReadModelSources): SmsSessionsQueries {
  return new SmsSessionsReadModel(() => readModels.source(SMS_SESSIONS_READ_MODEL));
}
