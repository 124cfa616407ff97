import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { CommandContext } from '../commands/command-context';
import { conversationStream, type ConversationEvent } from '../conversations/conversation.events';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { LOGGER } from '../platform/logging/logger';
import { ReadModels } from '../read-models/read-models.service';
import { SmsOutbox } from '../sms/sms-outbox';
import { CallRecordings } from '../voice/recording/call-recordings';
import { CONVERSATION_KEYS, type ConversationKeyStore } from './conversation-keys';
import { ConversationSealing } from './conversation-sealing';

const notFound = () => new DomainError('CONVERSATION_NOT_FOUND', 'conversation not found', 404);
const CHECKPOINT_ATTEMPTS = 3;

/**
 * Erasure of one conversation's personal data (contract §24): its key is destroyed first (from
 * then on every sealed field reads `[erased]`, on its own stream and in its channel's session
 * streams alike), then `ConversationErased` records who and when, the read models scrub what they
 * had stored of it, its recording and its unsent texts are deleted, and the SQLite files'
 * write-ahead logs are emptied so no old page of them keeps the text. Repeatable: a retry after a
 * failure finishes what the first call began.
 */
@Injectable()
export class PersonalDataService {
  constructor(
    @Inject(CONVERSATION_KEYS) private readonly keys: ConversationKeyStore,
    private readonly sealing: ConversationSealing,
    private readonly engine: ConversationEngine,
    private readonly readModels: ReadModels,
    private readonly recordings: CallRecordings,
    private readonly smsOutbox: SmsOutbox,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  async erase(agentId: string, conversationId: string, context: CommandContext): Promise<void> {
    const [started] = (await this.store.readStream(conversationStream(conversationId), {
      maxCount: 1,
    })) as unknown as ConversationEvent[];
    if (!started || started.type !== 'ConversationStarted' || started.data.agentId !== agentId) throw notFound();
    const at = this.clock.nowIso();
    await this.keys.erase(conversationId, at);
    this.sealing.forget(conversationId);
    await this.engine.erase(conversationId, context, at);
    await this.recordings.delete(conversationId);
    await this.smsOutbox.forget(conversationId);
    await this.readModels.waitFor(
      await this.store.headPosition(),
      (await this.readModels.status()).map((s) => s.name),
    );
    this.emptyWriteAheadLogs();
  }

  /** Every SQLite file under DATA_DIR but the log (it holds only ciphertext): its WAL checkpointed and truncated. */
  private emptyWriteAheadLogs(): void {
    for (const file of sqliteFiles(this.config.dataDir)) {
      const db = new Database(file, { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 100');
        for (let attempt = 1; attempt <= CHECKPOINT_ATTEMPTS; attempt++) {
          const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
          if (!result || result.busy === 0) break;
          if (attempt === CHECKPOINT_ATTEMPTS)
            this.logger.warn(
              { file: path.basename(file) },
              'a WAL could not be emptied after an erasure: readers kept it',
            );
        }
      } finally {
        db.close();
      }
    }
  }
}

function sqliteFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.sqlite') && entry.name !== 'events.sqlite' && fs.existsSync(`${full}-wal`))
        out.push(full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}
