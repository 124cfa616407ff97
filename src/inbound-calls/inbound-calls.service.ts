import { Inject, Injectable } from '@nestjs/common';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import { DEPLOYMENT_FOR_NUMBER_ENVIRONMENT, type NumberEnvironment } from '../accounts/permissions';
import { DeploymentContent } from '../agents/deployment-content';
import type { Environment } from '../agents/agent.events';
import { CallLines } from '../call-limits/call-lines';
import { conversationStream, type EndReason } from '../conversations/conversation.events';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { DniService } from '../dni/dni.service';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { DomainError, notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import { Timers, type DueTimer, type TimerHandler } from '../process-managers/timers';
import { ReadModels } from '../read-models/read-models.service';
import {
  inboundCallDecider,
  inboundCallStream,
  INBOUND_CALL_SID,
  type HungUpBy,
  type InboundCallCommand,
  type InboundCallEvent,
  type InboundCallState,
  type InboundFailure,
  type RingingCall,
} from './inbound-call.decider';
import type { SimulateInboundCallDto } from './inbound-call.dto';
import { CONVERSATIONS_READ_MODEL } from '../../projections/conversations/queries';
import { CONCURRENCY_READ_MODEL } from '../../projections/concurrency/queries';

const INBOUND_WATCHDOG = 'inbound-calls:watchdog';
/** A call still going this long after it rang is presumed lost with the process that ran it. */
const INBOUND_WATCHDOG_S = 2 * 3600;

export interface CallAnswer {
  call_sid: string;
  status: 'in-progress' | 'ended' | 'failed';
  reason: InboundFailure | null;
}

/** A ringing call: the call and the pool of the number it rang (`dni` numbers answer with a reservation). */
export interface Ringing {
  ok: true;
  call: RingingCall;
  pool: string;
}
export type RingOutcome = Ringing | { ok: false; answer: CallAnswer };
export type AnswerOutcome = { ok: true } | { ok: false; answer: CallAnswer };

/** How the conversation records who ended the call. */
const END_REASONS: Record<HungUpBy, EndReason> = {
  caller: 'user',
  agent: 'agent',
  'hold-limit': 'timeout',
  platform: 'crash',
};

const callNotFound = () => notFound('CALL_NOT_FOUND', 'no such inbound call');

/**
 * Inbound calls (contract §18), the call channel's adapter over the conversation engine: a call to
 * a provisioned number rings (its line taken under the account's limit), is answered with the
 * agent's greeting on that number's environment, takes each utterance as a user turn, and ends
 * when the caller or the agent hangs up; a call refused (the account's limit, no deployment) is a
 * conversation that started and ended without a turn. Every step is an event of the call's stream
 * and its conversation's; a durable watchdog ends a call whose process died and gives its line back.
 */
@Injectable()
@RunsBehindTheLog()
export class InboundCallsService implements BehindTheLogWork {
  /** The watchdog that ends calls lost with their process. */
  readonly timerHandlers: Record<string, TimerHandler> = {
    [INBOUND_WATCHDOG]: (timer: DueTimer<{ callSid: string }>) => this.lost(timer.payload.callSid),
  };

  private readonly accounts: AccountsQueries;
  /** the one handler of inbound call streams */
  private readonly calls: CommandHandler<InboundCallState, InboundCallCommand, InboundCallEvent>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    commands: Commands,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly readModels: ReadModels,
    private readonly deployments: DeploymentContent,
    private readonly timers: Timers,
    private readonly lines: CallLines,
    private readonly engine: ConversationEngine,
    private readonly dni: DniService,
  ) {
    this.accounts = accountsQueries(readModels);
    this.calls = commands.for(inboundCallDecider);
  }

  async receive(dto: SimulateInboundCallDto, context: CommandContext): Promise<CallAnswer> {
    const ringing = await this.ring(dto.from, dto.to, context);
    if (!ringing.ok) return ringing.answer;
    const { call } = ringing;
    const answered = await this.answer(ringing, context);
    if (!answered.ok) return answered.answer;
    try {
      let endedBy: HungUpBy | null = null;
      for (const text of dto.utterances) {
        const { state } = await this.engine.respond(call.callSid, { text }, context);
        // the agent ended the call (an end or a handoff): the rest of the script is not heard
        if (state.ended) {
          endedBy = 'agent';
          break;
        }
      }
      if (endedBy === null && (dto.hang_up ?? true)) endedBy = 'caller';
      if (endedBy) await this.finish(call, endedBy, context);
      await this.readable(call.callSid);
      return { call_sid: call.callSid, status: endedBy ? 'ended' : 'in-progress', reason: null };
    } catch (error) {
      // whatever broke, the call ends and its line is given back
      await this.finish(call, 'platform', context);
      throw error;
    }
  }

  /**
   * A call to `to` rings: its number's agent is found (404 PHONE_NUMBER_NOT_FOUND otherwise) and a
   * line taken under the account's limit; a call past the limit is refused and recorded as failed.
   * The simulator and the SIP server both start here.
   */
  async ring(from: string, to: string, context: CommandContext): Promise<RingOutcome> {
    const route = await this.accounts.phoneNumberRoute(to);
    if (!route || (await this.agents.accountOf(route.agentId)) !== route.accountId)
      throw notFound('PHONE_NUMBER_NOT_FOUND', `${to} is not provisioned for any agent`);
    const environment = DEPLOYMENT_FOR_NUMBER_ENVIRONMENT[route.environment as NumberEnvironment];
    const callSid = `IN-${this.ids.uuid()}`;
    const call: RingingCall = {
      callSid,
      accountId: route.accountId,
      agentId: route.agentId,
      environment,
      from,
      to,
      at: this.clock.nowIso(),
    };
    // Scheduled before the line is taken: should the process die with the call, the watchdog ends it.
    await this.timers.schedule({
      id: `${INBOUND_WATCHDOG}:${callSid}`,
      owner: INBOUND_WATCHDOG,
      dueAt: new Date(this.clock.nowMs() + INBOUND_WATCHDOG_S * 1000),
      payload: { callSid },
    });
    await this.command(callSid, { type: 'Ring', call }, context);
    try {
      await this.lines.take(call.accountId, callSid, context);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'CONCURRENT_CALL_LIMIT')
        return { ok: false, answer: await this.fail(call, 'concurrent-call-limit', context, false) };
      throw error;
    }
    return { ok: true, call, pool: route.pool };
  }

  /**
   * The ringing call is answered by its environment's deployment: the conversation starts with the
   * greeting (and the DNI reservation's attributes). No deployment: refused and recorded as failed.
   * Any other failure ends the call (its line given back) and is thrown.
   */
  async answer(ringing: Ringing, context: CommandContext): Promise<AnswerOutcome> {
    const { call } = ringing;
    try {
      const deploymentId = await this.deployments.activeDeploymentId(call.agentId, call.environment as Environment);
      if (!deploymentId) return { ok: false, answer: await this.fail(call, 'no-deployment', context, true) };
      const reservation =
        ringing.pool === 'dni' ? await this.dni.reservationOf(call.agentId, call.environment, call.to) : null;
      await this.command(
        call.callSid,
        { type: 'Answer', deploymentId, dniReservationId: reservation?.reservationId ?? '', now: this.clock.nowIso() },
        context,
      );
      await this.engine.start(
        {
          conversationId: call.callSid,
          agentId: call.agentId,
          deploymentId,
          environment: call.environment,
          channel: 'VOICE-SIP',
          callerNumber: call.from,
          agentNumber: call.to,
          fromNumber: call.from,
          toNumber: call.to,
          ...(reservation ? { attributes: { dni: reservation.attributes } } : {}),
        },
        context,
      );
      return { ok: true };
    } catch (error) {
      await this.finish(call, 'platform', context);
      throw error;
    }
  }

  /** The call stopped ringing before it was answered (the caller's CANCEL, the platform stopping). */
  async cancel(call: RingingCall, context: CommandContext): Promise<CallAnswer> {
    return this.fail(call, 'cancelled', context, true);
  }

  /** The caller hangs up a call left open (`hang_up: false`). */
  async hangUp(callSid: string, context: CommandContext): Promise<CallAnswer> {
    const call = await this.callOf(callSid);
    await this.finish(call, 'caller', context);
    await this.readable(callSid);
    return this.status(callSid);
  }

  async status(callSid: string): Promise<CallAnswer & { from: string; to: string }> {
    const call = await this.callOf(callSid);
    const { state } = await this.calls.load(inboundCallStream(callSid));
    const status = state.status === 'ended' ? 'ended' : state.status === 'failed' ? 'failed' : 'in-progress';
    return { call_sid: callSid, status, reason: state.reason, from: call.from, to: call.to };
  }

  /** The watchdog: a call still going is ended and its line given back. */
  async lost(callSid: string): Promise<void> {
    const { state } = await this.calls.load(inboundCallStream(callSid));
    if (!state.call || state.status === 'ended' || state.status === 'failed') return;
    await this.finish(state.call, 'platform', {
      actor: 'system:inbound-calls',
      correlationId: callSid,
      idempotencyKey: `inbound-calls:watchdog:${callSid}`,
    });
  }

  /**
   * The call ends (a no-op for one already over): the conversation ends, the line is given back.
   * The conversation ends first, so a status that says ended is never read before it (issue 47).
   */
  async finish(call: RingingCall, hungUpBy: HungUpBy, context: CommandContext): Promise<void> {
    const now = this.clock.nowIso();
    try {
      await this.engine.end(call.callSid, END_REASONS[hungUpBy], context, now);
    } finally {
      await this.command(call.callSid, { type: 'End', hungUpBy, now }, context);
    }
    await this.lines.release(call.accountId, call.callSid, context);
    await this.timers.cancel(`${INBOUND_WATCHDOG}:${call.callSid}`);
  }

  private async fail(
    call: RingingCall,
    reason: InboundFailure,
    context: CommandContext,
    heldLine: boolean,
  ): Promise<CallAnswer> {
    const now = this.clock.nowIso();
    await this.command(call.callSid, { type: 'Fail', reason, now }, context);
    // the answer hands out the call_sid, so the refused call is a conversation too (contract §2)
    await this.engine.recordNotConnected(
      {
        conversationId: call.callSid,
        accountId: call.accountId,
        agentId: call.agentId,
        environment: call.environment,
        channel: 'VOICE-SIP',
        callerNumber: call.from,
        agentNumber: call.to,
        fromNumber: call.from,
        toNumber: call.to,
        startedAt: call.at,
        endedAt: now,
        outcome: { callStatus: 'failed', failureReason: reason },
      },
      context,
    );
    if (heldLine) await this.lines.release(call.accountId, call.callSid, context);
    await this.timers.cancel(`${INBOUND_WATCHDOG}:${call.callSid}`);
    await this.readable(call.callSid);
    return { call_sid: call.callSid, status: 'failed', reason };
  }

  private async callOf(callSid: string): Promise<RingingCall> {
    if (!INBOUND_CALL_SID.test(callSid)) throw callNotFound();
    const { state } = await this.calls.load(inboundCallStream(callSid));
    if (!state.call) throw callNotFound();
    return state.call;
  }

  private command(callSid: string, command: InboundCallCommand, context: CommandContext) {
    return this.calls.handle(inboundCallStream(callSid), command, context);
  }

  /** The call's conversation is readable through the Conversations API once the answer is sent (contract §2). */
  private async readable(callSid: string): Promise<void> {
    const [last] = await this.store.readStream(conversationStream(callSid), { direction: 'backwards', maxCount: 1 });
    if (last) await this.readModels.waitFor(last.position, [CONVERSATIONS_READ_MODEL, CONCURRENCY_READ_MODEL]);
  }
}
