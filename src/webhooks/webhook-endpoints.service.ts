import { Inject, Injectable } from '@nestjs/common';
import { queryParam } from '../platform/http/query-params';
import {
  WEBHOOK_ENDPOINTS_READ_MODEL,
  webhookEndpointsQueries,
  type WebhookEndpoint as WebhookEndpointRow,
  type WebhookEndpointsQueries,
} from '../../projections/webhook-endpoints/queries';
import { newCredential, WEBHOOK_SECRET_PREFIX } from '../platform/auth/credentials';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { CONFIG, type Config } from '../platform/config/config';
import { badRequest, DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { isReadModelLagging } from '../read-models/failures/read-model-lagging';
import { ReadModels } from '../read-models/read-models.service';
import { customHeadersProblem, maskHeaders } from './custom-headers';
import type { CreateWebhookEndpointDto, PatchWebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { WebhookOutbox } from './outbox';
import {
  webhookEndpointsStream,
  type EndpointSettings,
  type SealedHeaders,
  type SealedSigningSecret,
  type WebhookEndpointsEvent,
} from './webhook-endpoint.events';
import {
  webhookEndpointsDecider,
  type WebhookEndpointsCommand,
  type WebhookEndpointsState,
} from './webhook-endpoints.decider';
import { webhookUrlProblem } from './webhook-url';

const ENDPOINT_ID = /^whe_[a-z0-9]{8,40}$/;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 100;

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

const invalid = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);

/**
 * Webhook endpoints of contract §13, scoped to the calling key's account: commands on the
 * account's endpoints stream, reads from the webhook-endpoints read model.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly endpoints: WebhookEndpointsQueries;
  /** the one handler of webhook endpoints streams */
  private readonly streams: CommandHandler<WebhookEndpointsState, WebhookEndpointsCommand, WebhookEndpointsEvent>;

  constructor(
    commands: Commands,
    private readonly readModels: ReadModels,
    private readonly outbox: WebhookOutbox,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.endpoints = webhookEndpointsQueries(readModels);
    this.streams = commands.for(webhookEndpointsDecider);
  }

  /**
   * The endpoint object; the signing secret only masked (it is shown in full once, on creation and
   * rotation); header values never (write-only: they often hold the receiver's credentials).
   */
  private view(row: WebhookEndpointRow) {
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      enabled: row.enabled,
      event_types: JSON.parse(row.eventTypes) as string[],
      headers: maskHeaders(JSON.parse(this.secret.decrypt(row.sealedHeaders)) as Record<string, string>),
      timeout_ms: row.timeoutMs,
      signing_secret: `${WEBHOOK_SECRET_PREFIX}…${row.secretLast4}`,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    };
  }

  async create(accountId: string, dto: CreateWebhookEndpointDto, context: CommandContext) {
    const url = this.checkUrl(dto.url);
    const headers = this.checkHeaders(dto.headers ?? {});
    const settings: EndpointSettings = {
      name: dto.name ?? new URL(url).host,
      url,
      enabled: dto.enabled !== false,
      eventTypes: dto.event_types,
      headers: this.sealHeaders(headers),
      timeoutMs: dto.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    };
    const signingSecret = newCredential(WEBHOOK_SECRET_PREFIX);
    const endpointId = `whe_${this.ids.short(12)}`;
    const now = await this.execute(
      accountId,
      { type: 'CreateEndpoint', endpointId, accountId, settings, secret: this.sealSecret(signingSecret) },
      context,
      { revealing: true },
    );
    // Built from what was decided, not read back: the secret is shown this once, lagging read model or not.
    return {
      id: endpointId,
      name: settings.name,
      url: settings.url,
      enabled: settings.enabled,
      event_types: settings.eventTypes,
      headers: maskHeaders(headers),
      timeout_ms: settings.timeoutMs,
      signing_secret: signingSecret,
      created_at: now,
      updated_at: now,
    };
  }

  async list(accountId: string) {
    const rows = await this.endpoints.endpointsOf(accountId);
    return { data: rows.map((row) => this.view(row)) };
  }

  async get(accountId: string, endpointId: string) {
    return this.view(await this.find(accountId, endpointId));
  }

  async patch(accountId: string, endpointId: string, dto: PatchWebhookEndpointDto, context: CommandContext) {
    // an unknown endpoint answers 404 before its body is judged (the decider checks again, on the stream)
    await this.find(accountId, endpointId);
    const changes: Partial<EndpointSettings> = {
      name: dto.name,
      url: dto.url === undefined ? undefined : this.checkUrl(dto.url),
      enabled: dto.enabled,
      eventTypes: dto.event_types,
      headers: dto.headers === undefined ? undefined : this.sealHeaders(this.checkHeaders(dto.headers)),
      timeoutMs: dto.timeout_ms,
    };
    await this.execute(accountId, { type: 'UpdateEndpoint', endpointId, accountId, changes }, context);
    return this.get(accountId, endpointId);
  }

  /** Its pending deliveries are cancelled by the webhook events process manager, on the event. */
  async delete(accountId: string, endpointId: string, context: CommandContext): Promise<void> {
    checkId(endpointId);
    await this.execute(accountId, { type: 'DeleteEndpoint', endpointId, accountId }, context);
  }

  /** A new secret, in full this once; the old one signs nothing from now on. */
  async rotateSecret(accountId: string, endpointId: string, context: CommandContext) {
    checkId(endpointId);
    const signingSecret = newCredential(WEBHOOK_SECRET_PREFIX);
    await this.execute(
      accountId,
      { type: 'RotateSecret', endpointId, accountId, secret: this.sealSecret(signingSecret) },
      context,
      { revealing: true },
    );
    return { signing_secret: signingSecret };
  }

  /** The endpoint's recent attempts, newest first, each with its delivery's final outcome. */
  async deliveries(accountId: string, endpointId: string, query: Record<string, unknown>) {
    const row = await this.find(accountId, endpointId);
    return { data: await this.outbox.attempts(row.id, this.limit(queryParam(query, 'limit'))) };
  }

  /**
   * Read-your-writes: the answer (and the delivery worker) sees the change before the response goes.
   * An answer that reveals a secret once does not become a 503 when the read model lags past the
   * wait: that would lose the secret of a change that was made. Returns the command's time.
   */
  private async execute(
    accountId: string,
    command: WithoutNow<WebhookEndpointsCommand>,
    context: CommandContext,
    options: { revealing?: boolean } = {},
  ): Promise<string> {
    const now = this.clock.nowIso();
    const result = await this.streams.handle(
      webhookEndpointsStream(accountId),
      { ...command, now } as WebhookEndpointsCommand,
      context,
    );
    try {
      await this.readModels.waitFor(result.position, [WEBHOOK_ENDPOINTS_READ_MODEL]);
    } catch (error) {
      if (!(options.revealing && isReadModelLagging(error))) throw error;
    }
    return now;
  }

  private async find(accountId: string, endpointId: string): Promise<WebhookEndpointRow> {
    checkId(endpointId);
    const row = await this.endpoints.endpoint(accountId, endpointId);
    if (!row) throw new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND', 'webhook endpoint not found', 404);
    return row;
  }

  /** Events keep only what the server secret opens: never a secret or a header value in the clear. */
  private sealSecret(signingSecret: string): SealedSigningSecret {
    return { sealedSecret: this.secret.encrypt(signingSecret), secretLast4: signingSecret.slice(-4) };
  }

  private sealHeaders(headers: Record<string, string>): SealedHeaders {
    const json = JSON.stringify(headers);
    return { sealed: this.secret.encrypt(json), digest: this.secret.digest(`webhook-headers:${json}`) };
  }

  private checkUrl(url: string): string {
    const problem = webhookUrlProblem(url, this.config.webhookAllowHttp);
    if (problem) throw invalid('url', problem);
    return url;
  }

  private checkHeaders(headers: unknown): Record<string, string> {
    const problem = customHeadersProblem(headers);
    if (problem) throw invalid(problem.field, problem.message);
    return headers as Record<string, string>;
  }

  private limit(raw: unknown): number {
    if (raw === undefined || raw === '') return DEFAULT_LIST_LIMIT;
    const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= MAX_LIST_LIMIT))
      throw invalid('limit', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
    return value;
  }
}

function checkId(endpointId: string): void {
  if (!ENDPOINT_ID.test(endpointId)) {
    throw new DomainError(
      'INVALID_WEBHOOK_ENDPOINT_ID',
      `webhook endpoint id ${JSON.stringify(endpointId)} is malformed (whe_<letters and digits>)`,
      422,
      null,
      [{ field: 'id', message: 'malformed id' }],
    );
  }
}
