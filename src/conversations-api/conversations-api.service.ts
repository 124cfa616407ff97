import { Readable } from 'node:stream';
import { queryParam } from '../platform/http/query-params';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataAccessService } from '../accounts/data-access.service';
import type { KeyRecord } from '../platform/auth/key-principal';
import { replayConversation, type ConversationSummary } from '../../projections/conversations/queries';
import { conversationStream, type ConversationEvent } from '../conversations/conversation.events';
import { ReadableAtOnce } from '../conversations/readable-at-once';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../event-store/event-store.port';
import { badRequest, DomainError, forbidden } from '../platform/errors/domain-error';
import { LOGGER } from '../platform/logging/logger';
import { ReadModels } from '../read-models/read-models.service';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import {
  CONVERSATIONS_REPOSITORY,
  SEMANTIC_WINDOW,
  type ConversationsRepository,
  type Page,
} from '../../projections/conversations/queries';
import type { EmbeddingRanker } from './embeddings';
import { Cursors, type CursorPosition } from './cursor';
import { parseListQuery, parseOneQuery, type ApiVersion, type ListQuery } from './list-query';
import { renderConversation, showsTurns, type Access, type RenderOptions } from './render';
import { streamList } from './stream-list';

/** The embedding ranker when EMBEDDINGS_BASE_URL is set, else null. */
export const SEMANTIC_RANKER = Symbol('SemanticRanker');

const notFound = () => new DomainError('CONVERSATION_NOT_FOUND', 'conversation not found', 404);

export interface ListAnswer {
  conversations: Array<Record<string, unknown>>;
  cursor: string | null;
  next_offset: number | null;
}

/** The Conversations API (interface.md, contract §8) and the audit routes over the conversations read model. */
@Injectable()
export class ConversationsApiService {
  private readonly accounts: AccountsQueries;

  constructor(
    @Inject(CONVERSATIONS_REPOSITORY) private readonly repository: ConversationsRepository,
    private readonly cursors: Cursors,
    private readonly dataAccess: DataAccessService,
    private readonly readModels: ReadModels,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SEMANTIC_RANKER) private readonly ranker: EmbeddingRanker | null,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly readable: ReadableAtOnce,
  ) {
    this.accounts = accountsQueries(readModels);
  }

  /** The list; a Readable writing the same JSON a group of conversations at a time (stream-list.ts) when the project streams. */
  async list(
    version: ApiVersion,
    agentId: string,
    raw: Record<string, unknown>,
    key: KeyRecord,
  ): Promise<ListAnswer | Readable> {
    const query = parseListQuery(version, raw);
    const streaming = version !== 'v1' && (await this.chunkedStreaming(agentId));
    if (query.cursor && version === 'v2' && !streaming)
      throw badRequest(
        'PARAMETER_NOT_SUPPORTED',
        'cursor works on v2 only when chunked streaming is enabled for the project; use offset or /v3',
      );
    const position = this.position(query, agentId);
    const page =
      query.search?.type === 'semantic' && this.ranker
        ? await this.rankedByEmbeddings(agentId, query, position)
        : await this.repository.list(agentId, query, position, query.limit);
    const access = await this.access(agentId, key);
    const options: RenderOptions = {
      version,
      includeLatency: query.includeLatency,
      includeContextState: query.includeContextState,
      includeTurnMetadata: query.includeTurnMetadata,
    };
    // cursors exist on v3, and on v2 when the project streams (interface.md rule 3)
    const cursor =
      version === 'v3' || (version === 'v2' && streaming) ? this.nextCursor(query, agentId, position, page) : null;
    const nextOffset = page.more
      ? (position && 'offset' in position ? position.offset : query.offset) + page.rows.length
      : null;
    const render = async (rows: ConversationSummary[]) => {
      const turns = showsTurns(access)
        ? await this.repository.turnsOf(
            rows.map((s) => s.id),
            query.includeTurnMetadata,
          )
        : null;
      return rows.map((s) => renderConversation(s, turns?.get(s.id) ?? null, options, access));
    };
    if (streaming) return Readable.from(streamList(page.rows, render, cursor, nextOffset));
    return { conversations: await render(page.rows), cursor, next_offset: nextOffset };
  }

  /** One conversation, now or `as_of` a revision or time (rebuilt from its events). */
  async one(
    version: ApiVersion,
    agentId: string,
    conversationId: string,
    raw: Record<string, unknown>,
    key: KeyRecord,
  ): Promise<Record<string, unknown>> {
    const query = parseOneQuery(raw);
    const access = await this.access(agentId, key);
    const options: RenderOptions = {
      version,
      includeLatency: query.includeLatency,
      includeContextState: query.includeContextState,
      includeTurnMetadata: query.includeTurnMetadata,
    };
    if (query.asOf) {
      // audit replay needs the permission outright (contract §8): no basic-fields fallback
      if (!key.permissions.includes('conversations'))
        throw forbidden('this key lacks the conversations permission', 'PERMISSION_DENIED');
      const asOf = query.asOf;
      const events = (await this.history(agentId, conversationId)).filter((e) =>
        'revision' in asOf ? e.revision <= BigInt(asOf.revision) : eventTime(e) <= asOf.time,
      );
      const then = replayConversation(events as unknown as ConversationEvent[]);
      if (!then) throw new DomainError('CONVERSATION_NOT_FOUND', 'the conversation had not started at that point', 404);
      return renderConversation(then.summary, showsTurns(access) ? then.turns : null, options, access);
    }
    await this.readable.conversation(conversationId);
    const summary = await this.repository.one(agentId, conversationId);
    if (!summary) throw notFound();
    return renderConversation(
      summary,
      showsTurns(access) ? await this.repository.turns(conversationId, query.includeTurnMetadata) : null,
      options,
      access,
    );
  }

  /** The stored history of one conversation, for auditors (contract §8), filtered by data access. */
  async events(agentId: string, conversationId: string, key: KeyRecord) {
    const events = await this.history(agentId, conversationId);
    const access = await this.access(agentId, key);
    return { events: events.map((e) => auditEvent(e, access)) };
  }

  /** Handoff state by shared_id (wins) or by conversation id (contract §9). */
  async handoff(agentId: string, raw: Record<string, unknown>) {
    const sharedId = queryParam(raw, 'shared_id', 'INVALID_PARAMETER') || null;
    const id = queryParam(raw, 'id', 'INVALID_PARAMETER') || null;
    if (!sharedId && !id) throw badRequest('INVALID_PARAMETER', 'id or shared_id is required');
    const summary = sharedId
      ? await this.repository.bySharedId(agentId, sharedId)
      : await this.repository.one(agentId, id!);
    if (!summary || summary.handoffAt === null)
      throw new DomainError('HANDOFF_STATE_NOT_FOUND', 'no handoff state for that conversation', 404);
    return { id: summary.id, shared_id: summary.sharedId, data: summary.handoffData };
  }

  /**
   * Semantic search with EMBEDDINGS_BASE_URL: the candidates ranked by embedding similarity. When
   * the endpoint fails or is slow, the search still answers, ranked the embedded way.
   */
  private async rankedByEmbeddings(agentId: string, query: ListQuery, position: CursorPosition | null): Promise<Page> {
    const offset = position && 'offset' in position ? position.offset : 0;
    try {
      const ids = await this.ranker!.rank(
        query.search!.query,
        await this.repository.semanticCandidates(agentId, query, SEMANTIC_WINDOW),
      );
      return {
        rows: await this.repository.summaries(ids.slice(offset, offset + query.limit)),
        more: ids.length > offset + query.limit,
      };
    } catch (error) {
      this.logger.warn({ err: error }, 'embeddings endpoint failed; semantic search ranked the embedded way');
      return this.repository.list(agentId, query, position, query.limit);
    }
  }

  private async history(agentId: string, conversationId: string): Promise<RecordedEvent[]> {
    // a conversation a channel starts behind the log may not be there yet (conversations/readable-at-once.ts)
    let events = await this.store.readStream(conversationStream(conversationId));
    if (events.length === 0 && (await this.readable.inLog(conversationId)))
      events = await this.store.readStream(conversationStream(conversationId));
    const started = events[0] as unknown as ConversationEvent | undefined;
    if (!started || started.type !== 'ConversationStarted' || started.data.agentId !== agentId) throw notFound();
    return events;
  }

  private position(query: ListQuery, agentId: string): CursorPosition | null {
    if (query.cursor) return this.cursors.decode(query.cursor, query, agentId);
    return query.offset > 0 ? { offset: query.offset } : null;
  }

  /** Keyset after the page's last row; for search results (ranked, not by time), the next offset. */
  private nextCursor(query: ListQuery, agentId: string, position: CursorPosition | null, page: Page): string | null {
    if (!page.more || page.rows.length === 0) return null;
    if (query.search || (position && 'offset' in position)) {
      const at = (position && 'offset' in position ? position.offset : 0) + page.rows.length;
      return this.cursors.encode(query, agentId, { offset: at });
    }
    const last = page.rows[page.rows.length - 1];
    return this.cursors.encode(query, agentId, { after: { startedAt: last.startedAt, id: last.id } });
  }

  private async access(agentId: string, key: KeyRecord): Promise<Access> {
    return { permissions: key.permissions, config: await this.dataAccess.config(agentId) };
  }

  private async chunkedStreaming(agentId: string): Promise<boolean> {
    const { row } = await this.accounts.chunkedStreaming(agentId);
    return Boolean(row?.chunked_streaming);
  }
}

function eventTime(event: RecordedEvent): string {
  return String((event.metadata as { occurredAt?: string }).occurredAt ?? '');
}

const REDACTED_TURN_FIELDS = ['userInput', 'agentResponse', 'entities', 'intents', 'inputMetadata'];

/** One audit entry; transcript text and metrics the project does not expose are redacted, not dropped. */
export function auditEvent(event: RecordedEvent, access: Access) {
  const metadata = event.metadata as { occurredAt?: string; actor?: unknown };
  let data = event.data as Record<string, unknown>;
  if (event.type === 'TurnRecorded' && !showsTurns(access)) {
    data = { ...data, redacted: 'transcripts are off for this project or this key lacks conversations' };
    for (const field of REDACTED_TURN_FIELDS) delete data[field];
  }
  // the analysis' summary retells the transcript (contract §24): it shows where the transcript does
  if (event.type === 'ConversationAnalysed' && !showsTurns(access)) {
    const { summary: _hidden, ...rest } = data;
    data = { ...rest, redacted: 'transcripts are off for this project or this key lacks conversations' };
  }
  if (event.type === 'MetricLogged' && !access.config.responseMetrics.includes(String(data.name)))
    data = { name: data.name, redacted: 'metric not enabled for this project' };
  return {
    position: event.position,
    revision: Number(event.revision),
    type: event.type,
    occurred_at: metadata.occurredAt ?? '',
    actor: metadata.actor ?? null,
    data,
  };
}
