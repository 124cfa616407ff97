import type { CommandContext } from '../../commands/command-context';
import type { CommandHandler } from '../../commands/command-handler';
import type { Commands } from '../../commands/commands';
import type { Decider, DomainEvent } from '../../commands/decider';
import type { ServerSecret } from '../../platform/auth/server-secret';
import type { Clock } from '../../platform/clock/clock';
import { conflict, notFound } from '../../platform/errors/domain-error';

/*
 * What the operator's endpoint lists share (model endpoints, llm-endpoints.ts; embeddings
 * endpoints, embedding-endpoints.ts): one stream per list for the whole installation, names
 * unique, an API key sealed with the server secret before it reaches an event and never returned.
 * Each list names its own events and error codes, and may carry more fields (an embeddings
 * endpoint's model).
 */

/** What every endpoint records; a list's record may add fields. */
export interface EndpointRecord {
  name: string;
  baseUrl: string;
  /** the API key sealed with the server secret (AES-256-GCM); null when the endpoint needs none */
  sealedApiKey: string | null;
  addedAt: string;
}

/** A list's events: `<Prefix>Added` with the record, `<Prefix>Deleted` with the name. */
export type EndpointEvent<P extends string, R extends EndpointRecord> =
  DomainEvent<`${P}Added`, R> | DomainEvent<`${P}Deleted`, { name: string; deletedAt: string }>;

export interface EndpointsState<R extends EndpointRecord> {
  endpoints: ReadonlyMap<string, R>;
}

export type EndpointCommand<R extends EndpointRecord> =
  | { type: 'AddEndpoint'; record: Omit<R, 'addedAt'>; now: string }
  | { type: 'DeleteEndpoint'; name: string; now: string };

/** How one list words itself: its event prefix, error code prefix and noun ("model endpoint"). */
export interface EndpointList<P extends string> {
  eventPrefix: P;
  /** `LLM_ENDPOINT` → LLM_ENDPOINT_EXISTS, LLM_ENDPOINT_NOT_FOUND */
  errorPrefix: string;
  noun: string;
  stream: string;
}

/** Names are unique; an endpoint is replaced by deleting it and adding it again (a key rotation). */
export function endpointsDecider<P extends string, R extends EndpointRecord>(
  list: EndpointList<P>,
): Decider<EndpointsState<R>, EndpointCommand<R>, EndpointEvent<P, R>> {
  const added = `${list.eventPrefix}Added` as const;
  const deleted = `${list.eventPrefix}Deleted` as const;
  return {
    initialState: () => ({ endpoints: new Map() }),
    evolve(state, event) {
      const endpoints = new Map(state.endpoints);
      if (event.type === added) endpoints.set(event.data.name, event.data as R);
      else endpoints.delete(event.data.name);
      return { endpoints };
    },
    decide(command, state) {
      switch (command.type) {
        case 'AddEndpoint': {
          const { name } = command.record;
          if (state.endpoints.has(name))
            throw conflict(`${list.errorPrefix}_EXISTS`, `an endpoint named ${name} exists; delete it first`);
          const data = { ...command.record, addedAt: command.now } as R;
          return [{ type: added, data } as EndpointEvent<P, R>];
        }
        case 'DeleteEndpoint':
          if (!state.endpoints.has(command.name))
            throw notFound(`${list.errorPrefix}_NOT_FOUND`, `no ${list.noun} has that name`);
          return [{ type: deleted, data: { name: command.name, deletedAt: command.now } } as EndpointEvent<P, R>];
      }
    },
  };
}

/** What a call needs of an endpoint: its record, with the key opened for the Authorization header only. */
export type ResolvedEndpoint<R extends EndpointRecord> = Omit<R, 'sealedApiKey' | 'addedAt'> & {
  apiKey: string | null;
};

/** How old a read `resolveRecent` answers from may be. */
const RECENT_MS = 1000;

/** What every add request carries (the DTOs check it; a list's DTO may add fields). */
export interface AddEndpointFields {
  name: string;
  base_url: string;
  api_key?: string;
}

/**
 * One operator list of endpoints. Read from the stream on each use: a handful of events, and a
 * key rotated or an endpoint deleted on another process takes effect on the next call.
 */
export abstract class SealedEndpoints<P extends string, R extends EndpointRecord> {
  /** what `resolveRecent` read last, and when (Date.now()) */
  private recent: { at: number; endpoints: Promise<ReadonlyMap<string, R>> } | null = null;
  /** the handler of the list's stream, without a cache: every use reads it */
  private readonly handler: CommandHandler<EndpointsState<R>, EndpointCommand<R>, EndpointEvent<P, R>>;

  /** `decider`: the list's one decider (endpointsDecider, made once where the list is declared). */
  protected constructor(
    private readonly kind: EndpointList<P>,
    decider: Decider<EndpointsState<R>, EndpointCommand<R>, EndpointEvent<P, R>>,
    commands: Commands,
    private readonly clock: Clock,
    private readonly secret: ServerSecret,
  ) {
    this.handler = commands.for(decider);
  }

  /** The record an add request makes, beyond the common fields (a list's own fields). */
  protected abstract recordOf(dto: AddEndpointFields): Omit<R, keyof EndpointRecord>;

  /** A record as the API shows it, beyond the common fields. */
  protected abstract viewOf(record: R): Record<string, unknown>;

  async add(dto: AddEndpointFields, context: CommandContext) {
    const record = {
      ...this.recordOf(dto),
      name: dto.name,
      baseUrl: dto.base_url.replace(/\/+$/, ''),
      sealedApiKey: dto.api_key !== undefined ? this.secret.encrypt(dto.api_key) : null,
    } as Omit<R, 'addedAt'>;
    const { state } = await this.execute({ type: 'AddEndpoint', record }, context);
    return this.view(state.endpoints.get(dto.name)!);
  }

  async list() {
    const endpoints = await this.all();
    return {
      endpoints: [...endpoints.values()].sort((a, b) => a.name.localeCompare(b.name)).map((r) => this.view(r)),
    };
  }

  async delete(name: string, context: CommandContext): Promise<void> {
    await this.execute({ type: 'DeleteEndpoint', name }, context);
  }

  /** The names that exist now (the settings routes refuse an unknown one). */
  async names(): Promise<Set<string>> {
    return new Set((await this.all()).keys());
  }

  /** The endpoint with its key opened, or null when there is none of that name (any more). */
  async resolve(name: string): Promise<ResolvedEndpoint<R> | null> {
    return this.opened((await this.all()).get(name));
  }

  /**
   * As `resolve`, from a read at most a second old (a change made through this process is seen at
   * once, one made through another within the second): for a call on every turn, whose budget is
   * a millisecond or two.
   */
  async resolveRecent(name: string): Promise<ResolvedEndpoint<R> | null> {
    const now = Date.now();
    if (!this.recent || now - this.recent.at >= RECENT_MS) {
      const endpoints = this.all();
      this.recent = { at: now, endpoints };
      endpoints.catch(() => (this.recent = null));
    }
    return this.opened((await this.recent.endpoints).get(name));
  }

  private opened(record: R | undefined): ResolvedEndpoint<R> | null {
    if (!record) return null;
    const { sealedApiKey, addedAt: _addedAt, ...rest } = record;
    return { ...rest, apiKey: sealedApiKey === null ? null : this.secret.decrypt(sealedApiKey) };
  }

  private async all(): Promise<ReadonlyMap<string, R>> {
    return (await this.handler.load(this.kind.stream)).state.endpoints;
  }

  private execute(
    command: { type: 'AddEndpoint'; record: Omit<R, 'addedAt'> } | { type: 'DeleteEndpoint'; name: string },
    context: CommandContext,
  ) {
    const full = { ...command, now: this.clock.nowIso() } as EndpointCommand<R>;
    this.recent = null;
    return this.handler.handle(this.kind.stream, full, context).finally(() => (this.recent = null));
  }

  private view(r: R) {
    return {
      name: r.name,
      base_url: r.baseUrl,
      ...this.viewOf(r),
      has_api_key: r.sealedApiKey !== null,
      created_at: r.addedAt,
    };
  }
}
