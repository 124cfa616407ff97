import { Inject, Injectable } from '@nestjs/common';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import { DeploymentContent } from '../agents/deployment-content';
import type { Environment } from '../agents/agent.events';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { keyCanReachAgent, type KeyRecord } from '../platform/auth/key-principal';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { CONFIG, type Config } from '../platform/config/config';
import { ReadableAtOnce } from '../conversations/readable-at-once';
import { DomainError, forbidden } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { ReadModels } from '../read-models/read-models.service';
import { Timers } from '../process-managers/timers';
import { CallLines } from '../call-limits/call-lines';
import { chooseCallerId } from './caller-id';
import type { PlaceOutboundCallDto } from './outbound-call.dto';
import { statusView } from './outbound-call.decider';
import { OUTBOUND_CALL_COMMANDS, type OutboundCallCommands } from './outbound-call-commands';
import { OUTBOUND_CALLS_PROCESS } from './outbound-calls.process-manager';
import { CALL_SID, outboundCallStream, type QueuedCall } from './outbound-call.events';
import { WATCHDOG_OWNER, watchdogDueAt, type WatchdogPayload } from './watchdog';

const notFound = () =>
  new DomainError('CALL_NOT_FOUND', "no such call (an ended call's status is kept for 2 hours)", 404);

/** Outbound calling (contract §10): place a call, read its status. */
@Injectable()
export class OutboundCallsService {
  private readonly accounts: AccountsQueries;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(OUTBOUND_CALL_COMMANDS) private readonly calls: OutboundCallCommands,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly readModels: ReadModels,
    private readonly deployments: DeploymentContent,
    private readonly timers: Timers,
    private readonly lines: CallLines,
    private readonly readable: ReadableAtOnce,
  ) {
    this.accounts = accountsQueries(readModels);
  }

  async place(key: KeyRecord, dto: PlaceOutboundCallDto, context: CommandContext): Promise<{ call_sid: string }> {
    const callerId = chooseCallerId(await this.numbersOf(key.accountId), dto.from_number, (agentId) =>
      keyCanReachAgent(key, agentId),
    );
    const deploymentId = await this.deployments.activeDeploymentId(
      callerId.agentId,
      callerId.environment as Environment,
    );
    if (!deploymentId) {
      throw new DomainError(
        'NO_ACTIVE_DEPLOYMENT',
        `no deployment of the agent of ${callerId.number} is active in ${callerId.environment}; merge or promote one first`,
        400,
      );
    }
    const callSid = `OUT-${this.ids.uuid()}`;
    const now = this.clock.nowIso();
    // Scheduled before the line is taken: should the process die between taking the line and
    // queueing the call, the watchdog gives the line back.
    const watchdog = `${WATCHDOG_OWNER}:${callSid}`;
    await this.timers.schedule({
      id: watchdog,
      owner: WATCHDOG_OWNER,
      dueAt: watchdogDueAt(now, this.config.outboundCalls),
      payload: { callSid, accountId: key.accountId } satisfies WatchdogPayload,
    });
    try {
      await this.lines.take(key.accountId, callSid, context);
    } catch (error) {
      await this.timers.cancel(watchdog);
      throw error;
    }
    const call: QueuedCall = {
      callSid,
      accountId: key.accountId,
      agentId: callerId.agentId,
      deploymentId,
      environment: callerId.environment,
      fromNumber: callerId.number,
      toNumber: dto.to_number,
      countryCode: dto.country_code?.toUpperCase() ?? null,
      metadata: dto.metadata ?? {},
      encryption: dto.encryption ?? 'TLS/SRTP',
      carrier: this.config.outboundCalls.carrier,
      queuedAt: now,
    };
    try {
      await this.calls.handle(outboundCallStream(callSid), { type: 'QueueCall', call }, context);
    } catch (error) {
      await this.releaseLine(key.accountId, callSid, context);
      throw error;
    }
    return { call_sid: callSid };
  }

  async status(key: KeyRecord, callSid: string) {
    if (!CALL_SID.test(callSid)) throw notFound();
    const { state } = await this.calls.load(outboundCallStream(callSid));
    if (!state.call) throw notFound();
    if (state.call.accountId !== key.accountId)
      throw forbidden('this call belongs to another account', 'ACCOUNT_FORBIDDEN');
    if (!keyCanReachAgent(key, state.call.agentId))
      throw forbidden('this key is not scoped to the agent that placed this call', 'AGENT_FORBIDDEN');
    const view = statusView(state, this.clock.nowMs());
    if (!view) throw notFound();
    // a final status is answered once the call's conversation reads ended too (issue 47)
    if (state.endedAt !== null)
      await this.readable.ended(callSid, await this.endPosition(callSid), OUTBOUND_CALLS_PROCESS);
    return view;
  }

  async releaseLine(accountId: string, callSid: string, context: CommandContext): Promise<void> {
    await this.lines.release(accountId, callSid, context);
  }

  /** Where the call's end is in the log: its stream's last event (an ended call takes no more). */
  private async endPosition(callSid: string) {
    const [last] = await this.store.readStream(outboundCallStream(callSid), { direction: 'backwards', maxCount: 1 });
    return last.position;
  }

  /** The account's provisioned numbers, on agents that still exist. */
  private async numbersOf(accountId: string) {
    const rows = await this.accounts.phoneNumbersOfAccount(accountId);
    const owners = await Promise.all(rows.map((row) => this.agents.accountOf(row.agentId)));
    // a DNI pool number is dialled by callers who reserved it, never shown as a caller id
    return rows.filter((row, i) => owners[i] === accountId && row.pool !== 'dni');
  }
}
