import type { RecordedEvent } from '../event-store/event-store.port';
import type { ProcessManager } from '../process-managers/process-manager';
import type { CallConversations } from './call-conversation';
import type { Carrier } from './carrier.port';
import type { OutboundCallState } from './outbound-call.decider';
import type { OutboundCallCommands } from './outbound-call-commands';
import { outboundCallStream, type OutboundCallEvent, type QueuedCall } from './outbound-call.events';

export const OUTBOUND_CALLS_PROCESS = 'outbound-calls';

type Data<T extends OutboundCallEvent['type']> = Extract<OutboundCallEvent, { type: T }>['data'];

export interface OutboundCallsDeps {
  /** read through the calls' one handler, whose cache the carrier's reports keep current */
  calls: OutboundCallCommands;
  carrier: Carrier;
  conversations: CallConversations;
  releaseLine: (accountId: string, callSid: string, cause: RecordedEvent) => Promise<void>;
}

/**
 * Moves a call from the log to the network and back: a queued call is handed to the carrier; an
 * answered one becomes a conversation with the agent's greeting; an ended one ends its
 * conversation (or, never answered, is recorded as one that ended unconnected) and gives the
 * account's line back. A replay after a crash re-runs these: the
 * carrier is only handed calls still queued, and the rest is keyed by the triggering event.
 */
export function outboundCallsProcessManager({
  calls,
  carrier,
  conversations,
  releaseLine,
}: OutboundCallsDeps): ProcessManager {
  const stateOf = async (callSid: string): Promise<OutboundCallState & { call: QueuedCall }> => {
    const { state } = await calls.load(outboundCallStream(callSid));
    if (!state.call) throw new Error(`call ${callSid} has events but no OutboundCallQueued`);
    return state as OutboundCallState & { call: QueuedCall };
  };

  return {
    name: OUTBOUND_CALLS_PROCESS,
    handles: {
      OutboundCallQueued: async (event: RecordedEvent<Data<'OutboundCallQueued'>>) => {
        const state = await stateOf(event.data.callSid);
        if (state.status === 'queued') await carrier.place(state.call);
      },
      OutboundCallAnswered: async (event: RecordedEvent<Data<'OutboundCallAnswered'>>) => {
        const state = await stateOf(event.data.callSid);
        await conversations.start(state.call, event.data.at, event);
      },
      OutboundCallEnded: async (event: RecordedEvent<Data<'OutboundCallEnded'>>) => {
        const state = await stateOf(event.data.callSid);
        if (state.answeredAt) await conversations.end(state.call, event.data.hungUpBy, event.data.at, event);
        else await conversations.notConnected(state.call, event.data.reason, event.data.at, event);
        await releaseLine(state.call.accountId, state.call.callSid, event);
      },
    },
  };
}

/** The watchdog timer: a call still going when it fires is ended; a line taken for a call never queued is given back. */
export function watchdogHandler(deps: {
  calls: OutboundCallCommands;
  ended: (callSid: string, idempotencyKey: string) => Promise<void>;
  releaseLine: (accountId: string, callSid: string) => Promise<void>;
}): (timer: { id: string; payload: { callSid: string; accountId: string } }) => Promise<void> {
  // a Timers handler
  return async ({ id, payload }) => {
    const { state } = await deps.calls.load(outboundCallStream(payload.callSid));
    if (!state.call) return deps.releaseLine(payload.accountId, payload.callSid);
    if (state.endedAt === null) await deps.ended(payload.callSid, id);
  };
}
