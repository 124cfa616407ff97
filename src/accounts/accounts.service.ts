import type { AccountEvent } from './account.events';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { CONNECTOR_TOKEN_PREFIX, newCredential, WEBHOOK_SECRET_PREFIX } from '../platform/auth/credentials';
import { ServerSecret } from '../platform/auth/server-secret';
import type { CommandContext } from '../commands/command-context';
import { badRequest, notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { accountRef, agentRef, parseAgentId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import {
  accountsQueries,
  type Account as AccountRow,
  type AccountsQueries,
  type Connector as ConnectorRow,
  type PhoneNumber as PhoneNumberRow,
  ACCOUNTS_READ_MODEL,
} from '../../projections/accounts/queries';
import { AccountCommands } from './account-commands';
import {
  phoneNumberDecider,
  phoneNumberStream,
  type ClaimPhoneNumber,
  type PhoneNumberEvent,
  type PhoneNumberState,
} from './phone-number.decider';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import type {
  AgentSettingsDto,
  CreateAccountDto,
  CreateConnectorDto,
  ProvisionPhoneNumberDto,
} from './dto/account.dto';
import { dniPoolStream, reservationAt } from '../dni/dni-pool.decider';
import { DNI_POOL_COMMANDS, type DniPoolCommands } from '../dni/dni-pool-commands';
import {
  DEPLOYMENT_ENVIRONMENTS,
  DEPLOYMENT_FOR_NUMBER_ENVIRONMENT,
  NUMBER_ENVIRONMENTS,
  type NumberEnvironment,
} from './permissions';

const accountView = (row: AccountRow) => ({
  accountId: accountRef(row.id),
  name: row.name,
  region: row.region,
  createdAt: row.createdAt,
});

/** Accounts and the operator's attachments to agents: connectors, phone numbers, settings. */
@Injectable()
export class AccountsService {
  private readonly queries: AccountsQueries;
  /** the one handler of phone number streams: who holds a number, across accounts */
  private readonly numbers: CommandHandler<PhoneNumberState, ClaimPhoneNumber, PhoneNumberEvent>;

  constructor(
    private readonly commands: AccountCommands,
    private readonly readModels: ReadModels,
    private readonly ids: IdGenerator,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(DNI_POOL_COMMANDS) private readonly pools: DniPoolCommands,
    handlers: Commands,
  ) {
    this.queries = accountsQueries(readModels);
    this.numbers = handlers.for(phoneNumberDecider);
  }

  async create(dto: CreateAccountDto, context: CommandContext) {
    const accountId = this.ids.short(8);
    await this.commands.execute(
      accountId,
      { type: 'CreateAccount', accountId, name: dto.name, region: dto.region },
      context,
      [ACCOUNTS_READ_MODEL],
    );
    return this.get(accountId);
  }

  async list() {
    const rows = await this.queries.accounts();
    return rows.map(accountView);
  }

  async get(accountId: string) {
    const row = await this.queries.account(accountId);
    if (!row) throw notFound('ACCOUNT_NOT_FOUND', 'account not found');
    return accountView(row);
  }

  /** The agent of `raw`, which must exist; its account is returned with it. */
  async agentOf(raw: string, field = 'agentId'): Promise<{ agentId: string; accountId: string }> {
    let agentId: string;
    try {
      agentId = parseAgentId(raw);
    } catch {
      throw badRequest('VALIDATION_ERROR', `${field} is not an agent id`, [
        { field, message: `${field} is not an agent id` },
      ]);
    }
    const accountId = await this.agents.accountOf(agentId);
    if (!accountId) throw notFound('AGENT_NOT_FOUND', `agent ${agentRef(agentId)} not found`);
    return { agentId, accountId };
  }

  async createConnector(accountId: string, dto: CreateConnectorDto, context: CommandContext) {
    await this.get(accountId);
    const { agentId, accountId: owner } = await this.agentOf(dto.agentId);
    if (owner !== accountId)
      throw badRequest('VALIDATION_ERROR', 'agentId belongs to another account', [
        { field: 'agentId', message: 'agentId belongs to another account' },
      ]);
    const environments: readonly string[] = dto.kind === 'sms' ? NUMBER_ENVIRONMENTS : DEPLOYMENT_ENVIRONMENTS;
    if (!environments.includes(dto.environment)) {
      const message = `environment must be one of ${environments.join(', ')} for a ${dto.kind} connector`;
      throw badRequest('VALIDATION_ERROR', message, [{ field: 'environment', message }]);
    }
    if (dto.kind === 'messaging' && !dto.hostDomain) {
      throw badRequest('VALIDATION_ERROR', 'hostDomain is required for a messaging connector', [
        { field: 'hostDomain', message: 'hostDomain is required for a messaging connector' },
      ]);
    }
    const connectorId = `con_${this.ids.short(10)}`;
    const connectorToken = dto.kind === 'messaging' ? newCredential(CONNECTOR_TOKEN_PREFIX) : null;
    const webhookSecret = dto.kind === 'sms' ? newCredential(WEBHOOK_SECRET_PREFIX) : null;
    const events = await this.commands.executeRevealing(
      accountId,
      {
        type: 'CreateConnector',
        connectorId,
        agentId,
        kind: dto.kind,
        environment: dto.environment,
        hostDomain: dto.hostDomain?.toLowerCase() ?? null,
        tokenDigest: connectorToken ? this.secret.digest(connectorToken) : null,
        sealedWebhookSecret: webhookSecret ? this.secret.encrypt(webhookSecret) : null,
      },
      context,
      [ACCOUNTS_READ_MODEL],
    );
    const created = events.find((e) => e.type === 'ConnectorCreated')!.data as Extract<
      AccountEvent,
      { type: 'ConnectorCreated' }
    >['data'];
    // The token and the secret are shown this once; only their digest / sealed form is kept.
    return {
      ...connectorView({ id: connectorId, ...created }),
      ...(connectorToken ? { connectorToken } : {}),
      ...(webhookSecret ? { webhookSecret } : {}),
    };
  }

  /** An account's connectors; their token or webhook secret was shown once, at creation, and never again. */
  async listConnectors(accountId: string) {
    await this.get(accountId);
    return { connectors: (await this.queries.connectorsOf(accountId)).map(connectorView) };
  }

  /** An agent's numbers in every environment; a DNI pool number says whether a reservation holds it now. */
  async listNumbers(rawAgentId: string) {
    const { agentId } = await this.agentOf(rawAgentId);
    const rows = await this.queries.phoneNumbersOfAgent(agentId);
    const now = this.clock.nowIso();
    const numbers = [];
    for (const row of rows) {
      if (row.pool !== 'dni') {
        numbers.push(phoneNumberView(row));
        continue;
      }
      const environment = DEPLOYMENT_FOR_NUMBER_ENVIRONMENT[row.environment as NumberEnvironment];
      const { state } = await this.pools.load(dniPoolStream(agentId, environment));
      const reservation = reservationAt(state, row.number, now);
      numbers.push({
        ...phoneNumberView(row),
        reserved: reservation !== null,
        reservedUntil: reservation?.expiresAt ?? null,
      });
    }
    return { phoneNumbers: numbers };
  }

  async provisionNumber(rawAgentId: string, dto: ProvisionPhoneNumberDto, context: CommandContext) {
    const { agentId, accountId } = await this.agentOf(rawAgentId);
    const pool = dto.pool ?? 'main';
    const before = await this.queries.phoneNumberRoute(dto.number);
    // The number's own stream decides who holds it, across accounts; then the account records it.
    await this.numbers.handle(
      phoneNumberStream(dto.number),
      { number: dto.number, agentId, accountId, now: this.clock.nowIso() },
      context,
    );
    await this.commands.execute(
      accountId,
      { type: 'ProvisionPhoneNumber', agentId, number: dto.number, environment: dto.environment, pool },
      context,
      [ACCOUNTS_READ_MODEL],
    );
    await this.movePool(agentId, dto.number, before, { environment: dto.environment, pool }, context);
    return { agentId: agentRef(agentId), number: dto.number, environment: dto.environment, pool };
  }

  /**
   * A DNI number sits in its agent's pool for the environment it answers in (contract §18); a
   * number moved to another environment or out of the pool leaves the old one. Both are idempotent,
   * so a retried provisioning converges.
   */
  private async movePool(
    agentId: string,
    number: string,
    before: { agentId: string; environment: string; pool: string } | null,
    after: { environment: NumberEnvironment; pool: string },
    context: CommandContext,
  ) {
    const poolOf = (environment: string) => DEPLOYMENT_FOR_NUMBER_ENVIRONMENT[environment as NumberEnvironment];
    const pool = (environment: string, type: 'AddNumber' | 'RemoveNumber') =>
      this.pools.handle(
        dniPoolStream(agentId, poolOf(environment)),
        { type, agentId, environment: poolOf(environment), number, now: this.clock.nowIso() },
        context,
      );
    if (
      before?.pool === 'dni' &&
      before.agentId === agentId &&
      (before.environment !== after.environment || after.pool !== 'dni')
    )
      await pool(before.environment, 'RemoveNumber');
    if (after.pool === 'dni') await pool(after.environment, 'AddNumber');
  }

  async changeSettings(rawAgentId: string, dto: AgentSettingsDto, context: CommandContext) {
    const { agentId, accountId } = await this.agentOf(rawAgentId);
    await this.commands.execute(
      accountId,
      { type: 'ChangeAgentSettings', agentId, chunkedStreaming: dto.chunked_streaming },
      context,
      [ACCOUNTS_READ_MODEL],
    );
    return { agentId: agentRef(agentId), chunked_streaming: dto.chunked_streaming, updatedAt: this.clock.nowIso() };
  }
}

const connectorView = (
  row: Pick<ConnectorRow, 'id' | 'accountId' | 'agentId' | 'kind' | 'environment' | 'hostDomain' | 'createdAt'>,
) => ({
  connectorId: row.id,
  accountId: accountRef(row.accountId),
  agentId: agentRef(row.agentId),
  kind: row.kind,
  environment: row.environment,
  hostDomain: row.hostDomain,
  createdAt: row.createdAt,
});

const phoneNumberView = (
  row: Pick<PhoneNumberRow, 'agentId' | 'number' | 'environment' | 'pool' | 'provisionedAt'>,
) => ({
  agentId: agentRef(row.agentId),
  number: row.number,
  environment: row.environment,
  pool: row.pool,
  provisionedAt: row.provisionedAt,
});
