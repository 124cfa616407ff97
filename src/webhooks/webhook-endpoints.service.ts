import { Inject, Injectable } from '@nestjs/common';
import { newCredential, WEBHOOK_SECRET_PREFIX } from '../platform/auth/credentials';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { badRequest, DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { customHeadersProblem } from './custom-headers';
import type { CreateWebhookEndpointDto, PatchWebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { WebhookEndpointStore, type EndpointChanges, type EndpointRecord } from './endpoint-store';
import { webhookUrlProblem } from './webhook-url';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
const ENDPOINT_ID = /^whe_[a-z0-9]{8,40}$/;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 100;

const invalid = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);

/** Webhook endpoints of contract §13, scoped to the calling key's account. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** The endpoint object; the signing secret only masked (it is shown in full once, on creation and rotation). */
  private view(record: EndpointRecord) {
    return {
      id: record.id,
      name: record.name,
      url: record.url,
      enabled: record.enabled === 1,
      event_types: JSON.parse(record.event_types) as string[],
      headers: JSON.parse(this.secret.decrypt(record.sealed_headers)) as Record<string, string>,
      timeout_ms: record.timeout_ms,
      signing_secret: `${WEBHOOK_SECRET_PREFIX}…${record.secret_last4}`,
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
  }

  create(accountId: string, dto: CreateWebhookEndpointDto) {
    const url = this.checkUrl(dto.url);
    const headers = this.checkHeaders(dto.headers ?? {});
    const signingSecret = newCredential(WEBHOOK_SECRET_PREFIX);
    const now = this.clock.nowIso();
    const record: EndpointRecord = {
      id: `whe_${this.ids.short(12)}`,
      account_id: accountId,
      name: dto.name ?? new URL(url).host,
      url,
      enabled: dto.enabled === false ? 0 : 1,
      event_types: JSON.stringify(dto.event_types),
      sealed_headers: this.secret.encrypt(JSON.stringify(headers)),
      timeout_ms: dto.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      sealed_secret: this.secret.encrypt(signingSecret),
      secret_last4: signingSecret.slice(-4),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    if (!this.store.insertWithinLimit(record, MAX_ENDPOINTS_PER_ACCOUNT)) {
      throw new DomainError('WEBHOOK_ENDPOINT_LIMIT', `an account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`, 409);
    }
    return { ...this.view(record), signing_secret: signingSecret };
  }

  list(accountId: string) {
    return { data: this.store.list(accountId).map((record) => this.view(record)) };
  }

  get(accountId: string, endpointId: string) {
    return this.view(this.find(accountId, endpointId));
  }

  patch(accountId: string, endpointId: string, dto: PatchWebhookEndpointDto) {
    const record = this.find(accountId, endpointId);
    const changes: EndpointChanges = {
      name: dto.name,
      url: dto.url === undefined ? undefined : this.checkUrl(dto.url),
      enabled: dto.enabled === undefined ? undefined : dto.enabled ? 1 : 0,
      event_types: dto.event_types === undefined ? undefined : JSON.stringify(dto.event_types),
      sealed_headers: dto.headers === undefined ? undefined : this.secret.encrypt(JSON.stringify(this.checkHeaders(dto.headers))),
      timeout_ms: dto.timeout_ms,
    };
    this.store.update(record.id, changes, this.clock.nowIso());
    return this.get(accountId, endpointId);
  }

  delete(accountId: string, endpointId: string): void {
    this.store.delete(this.find(accountId, endpointId).id, this.clock.nowIso());
  }

  /** A new secret, in full this once; the old one signs nothing from now on. */
  rotateSecret(accountId: string, endpointId: string) {
    const record = this.find(accountId, endpointId);
    const signingSecret = newCredential(WEBHOOK_SECRET_PREFIX);
    this.store.update(record.id, { sealed_secret: this.secret.encrypt(signingSecret), secret_last4: signingSecret.slice(-4) }, this.clock.nowIso());
    return { signing_secret: signingSecret };
  }

  /** The endpoint's recent attempts, newest first, each with its delivery's final outcome. */
  deliveries(accountId: string, endpointId: string, query: Record<string, unknown>) {
    const record = this.find(accountId, endpointId);
    return { data: this.store.attempts(record.id, this.limit(query.limit)) };
  }

  private find(accountId: string, endpointId: string): EndpointRecord {
    if (!ENDPOINT_ID.test(endpointId)) {
      throw new DomainError('INVALID_WEBHOOK_ENDPOINT_ID', `webhook endpoint id ${JSON.stringify(endpointId)} is malformed (whe_<letters and digits>)`, 422, null, [{ field: 'id', message: 'malformed id' }]);
    }
    const record = this.store.find(accountId, endpointId);
    if (!record) throw new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND', 'webhook endpoint not found', 404);
    return record;
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
    if (!(value >= 1 && value <= MAX_LIST_LIMIT)) throw invalid('limit', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
    return value;
  }
}
