import type { AccountEvent } from './account.events';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { KEY_PREFIX, maskKey, newCredential } from '../platform/auth/credentials';
import type { KeyRecord } from '../platform/auth/key-principal';
import type { Principal } from '../platform/auth/principal';
import { ServerSecret } from '../platform/auth/server-secret';
import type { CommandContext } from '../commands/command-context';
import { badRequest, DomainError, forbidden, notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { accountRef, agentRef, tryParseAgentId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import {
  apiKeysQueries,
  type ApiKey as ApiKeyRow,
  type ApiKeysQueries,
  API_KEYS_READ_MODEL,
} from '../../projections/api-keys/queries';
import { AccountCommands } from './account-commands';
import { AccountsService } from './accounts.service';
import type { CreateApiKeyDto, PatchApiKeyDto } from './dto/api-key.dto';
import type { Permission } from './permissions';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function keyView(
  row: Pick<ApiKeyRow, 'id' | 'name' | 'agents' | 'permissions' | 'expiresAt' | 'createdAt' | 'last4'>,
  fullKey?: string,
) {
  const agents = JSON.parse(row.agents) as 'all' | string[];
  return {
    id: row.id,
    name: row.name,
    agents: agents === 'all' ? 'all' : agents.map(agentRef),
    permissions: JSON.parse(row.permissions) as Permission[],
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    key: fullKey ?? maskKey(row.last4),
  };
}

const fieldError = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);

/** Key management of contract §4: the API Keys tab as an API. */
@Injectable()
export class ApiKeysService {
  private readonly keys: ApiKeysQueries;

  constructor(
    private readonly commands: AccountCommands,
    private readonly accounts: AccountsService,
    readModels: ReadModels,
    private readonly ids: IdGenerator,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
  ) {
    this.keys = apiKeysQueries(readModels);
  }

  async create(
    accountId: string,
    dto: CreateApiKeyDto,
    issuer: Principal,
    issuerKey: KeyRecord | undefined,
    context: CommandContext,
  ) {
    await this.accounts.get(accountId);
    const expiresAt = this.validExpiry(dto.expiresAt);
    const agents = await this.validAgents(accountId, dto.agents);
    if (issuerKey) this.noEscalation(issuerKey, agents, dto.permissions);
    const keyId = `key_${this.ids.short(10)}`;
    const value = newCredential(KEY_PREFIX);
    const events = await this.commands.executeRevealing(
      accountId,
      {
        type: 'CreateApiKey',
        keyId,
        name: dto.name,
        agents,
        permissions: dto.permissions,
        expiresAt,
        keyDigest: this.secret.digest(value),
        last4: value.slice(-4),
        issuedBy: issuer.kind === 'operator' ? 'operator' : 'key',
      },
      context,
      [API_KEYS_READ_MODEL],
    );
    const created = events.find((e) => e.type === 'ApiKeyCreated')!.data as Extract<
      AccountEvent,
      { type: 'ApiKeyCreated' }
    >['data'];
    return keyView(
      {
        id: keyId,
        name: created.name,
        agents: JSON.stringify(created.agents),
        permissions: JSON.stringify(created.permissions),
        expiresAt: created.expiresAt,
        createdAt: created.createdAt,
        last4: created.last4,
      },
      value,
    );
  }

  async list(accountId: string) {
    await this.accounts.get(accountId);
    const rows = await this.keys.keysOf(accountId);
    return { apiKeys: rows.filter((r) => r.deletedAt === null).map((r) => keyView(r)) };
  }

  /** The authenticated key as the API shows it (masked), straight from the guard's record. */
  describe(key: KeyRecord) {
    return {
      id: key.id,
      accountId: accountRef(key.accountId),
      name: key.name,
      agents: key.agents === 'all' ? 'all' : key.agents.map(agentRef),
      permissions: key.permissions,
      expiresAt: key.expiresAt,
      key: maskKey(key.last4),
    };
  }

  async get(accountId: string, keyId: string) {
    return keyView(await this.row(accountId, keyId));
  }

  async patch(
    accountId: string,
    keyId: string,
    dto: PatchApiKeyDto,
    issuerKey: KeyRecord | undefined,
    context: CommandContext,
  ) {
    this.mayManage(issuerKey, await this.row(accountId, keyId));
    for (const field of ['agents', 'permissions', 'expiresAt'] as const) {
      if (dto[field] !== undefined)
        throw new DomainError(
          'API_KEY_IMMUTABLE',
          `${field} cannot be changed after creation; only name can`,
          422,
          null,
          [{ field, message: `${field} cannot be changed` }],
        );
    }
    if (dto.name !== undefined)
      await this.commands.execute(accountId, { type: 'RenameApiKey', keyId, name: dto.name }, context, [
        API_KEYS_READ_MODEL,
      ]);
    return keyView(await this.row(accountId, keyId));
  }

  async delete(
    accountId: string,
    keyId: string,
    issuerKey: KeyRecord | undefined,
    context: CommandContext,
  ): Promise<void> {
    this.mayManage(issuerKey, await this.row(accountId, keyId));
    await this.commands.execute(accountId, { type: 'DeleteApiKey', keyId }, context, [API_KEYS_READ_MODEL]);
  }

  private async row(accountId: string, keyId: string): Promise<ApiKeyRow> {
    const row = await this.keys.key(accountId, keyId);
    if (!row || row.deletedAt !== null) throw notFound('API_KEY_NOT_FOUND', 'API key not found');
    return row;
  }

  /** Required, in the future, at most two years ahead, on the platform clock. */
  private validExpiry(raw: string): string {
    const ms = ISO_DATE.test(raw) ? Date.parse(raw) : NaN;
    if (Number.isNaN(ms) || !isCalendarDate(raw))
      throw fieldError('expiresAt', 'expiresAt must be an ISO 8601 date such as 2027-01-31 or 2027-01-31T12:00:00Z');
    const now = this.clock.now().getTime();
    if (ms <= now) throw fieldError('expiresAt', 'expiresAt must be in the future');
    if (ms > addYears(now, 2)) {
      throw fieldError('expiresAt', 'expiresAt must be at most 2 years ahead');
    }
    return new Date(ms).toISOString();
  }

  private async validAgents(accountId: string, raw: 'all' | string[]): Promise<'all' | string[]> {
    if (raw === 'all') return 'all';
    const bare: string[] = [];
    for (const [i, value] of raw.entries()) {
      const agentId = tryParseAgentId(value);
      if (!agentId) throw fieldError(`agents.${i}`, `agents[${i}] is not an agent id`);
      if ((await this.agents.accountOf(agentId)) !== accountId)
        throw fieldError(`agents.${i}`, `agents[${i}] (${value}) is not an agent of this account`);
      bare.push(agentId);
    }
    return [...new Set(bare)];
  }

  /** Nor rename or delete one that reaches further than itself. */
  private mayManage(issuer: KeyRecord | undefined, target: ApiKeyRow): void {
    if (!issuer) return;
    this.noEscalation(issuer, JSON.parse(target.agents), JSON.parse(target.permissions));
  }

  /** A key that manages keys cannot mint one that reaches further than itself. */
  private noEscalation(issuer: KeyRecord, agents: 'all' | string[], permissions: Permission[]): void {
    const extra = permissions.filter((p) => !issuer.permissions.includes(p));
    if (extra.length > 0)
      throw forbidden(`a key cannot grant permissions it does not hold: ${extra.join(', ')}`, 'PERMISSION_ESCALATION');
    if (issuer.agents !== 'all' && (agents === 'all' || agents.some((a) => !issuer.agents.includes(a)))) {
      throw forbidden('a key cannot grant agents outside its own scope', 'PERMISSION_ESCALATION');
    }
  }
}

function addYears(ms: number, years: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

/** 2027-02-30 parses (to March 2nd) but is no date: the day must exist in its month. */
function isCalendarDate(raw: string): boolean {
  const [year, month, day] = raw.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
