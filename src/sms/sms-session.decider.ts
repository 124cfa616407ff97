import type { Decider } from '../commands/decider';
import { DomainError } from '../platform/errors/domain-error';
import type { SmsRoute, SmsSessionEndReason, SmsSessionEvent } from './sms-session.events';

export type { SmsRoute, SmsSessionEvent } from './sms-session.events';

/**
 * The SMS sessions of one (agent number, user number) pair, purely: interface.md's "SMS session"
 * state table as a decider. The pair's stream (`sms-session-<agent>-<user>`) holds its sessions
 * one after another, so "the active session of this pair" is decided under the stream's optimistic
 * concurrency: two inbound messages racing never open two sessions. Each session is one
 * conversation. Idle rules run on durable timers; each activity starts a new timer generation, so a
 * timer of an older generation decides nothing.
 *
 *   none    --outbound--> active (not engaged: the sent message is its greeting)
 *   none    --inbound---> active, engaged
 *   active  --inbound---> active, engaged (message added; idle timer restarts)
 *   engaged --24 h idle--> warning (a warning message is sent)
 *   warning --inbound within 10 min--> active, engaged
 *   warning --10 min silence--> ended
 */
export const IDLE_WARNING_MS = 24 * 3600 * 1000;
export const WARNING_REPLY_MS = 10 * 60 * 1000;
/** Provider message ids remembered per pair, so a carrier's redelivery adds nothing. */
const REMEMBERED_DELIVERIES = 100;

type SmsSessionStatus = 'none' | 'active' | 'warning' | 'ended';

export interface SmsSessionState {
  status: SmsSessionStatus;
  conversationId: string;
  agentNumber: string;
  userNumber: string;
  route: SmsRoute | null;
  engaged: boolean;
  lastActivityAt: string;
  /** the current timer generation; timers carry the one they were scheduled for */
  generation: number;
  /** the latest inbound deliveries of this pair, newest last */
  recent: ReadonlyArray<{ providerMessageId: string; conversationId: string }>;
}

export type SmsSessionCommand =
  | {
      type: 'OpenOutbound';
      conversationId: string;
      agentNumber: string;
      userNumber: string;
      text: string;
      route: SmsRoute;
      now: string;
    }
  | {
      type: 'ReceiveInbound';
      newConversationId: string;
      agentNumber: string;
      userNumber: string;
      text: string;
      providerMessageId: string;
      /** the route a new session would take; `deploymentId` null when the environment has none active */
      route: Omit<SmsRoute, 'deploymentId'> & { deploymentId: string | null };
      now: string;
    }
  | { type: 'IdleTimerFired'; generation: number; warningText: string; now: string }
  | { type: 'WarningTimerFired'; generation: number; now: string }
  /** the conversation ended on its own (an agent action, a handoff): the session goes with it */
  | { type: 'EndSession'; conversationId: string; now: string };

const initialState = (): SmsSessionState => ({
  status: 'none',
  conversationId: '',
  agentNumber: '',
  userNumber: '',
  route: null,
  engaged: false,
  lastActivityAt: '',
  generation: 0,
  recent: [],
});

function evolve(s: SmsSessionState, event: SmsSessionEvent): SmsSessionState {
  switch (event.type) {
    case 'SmsSessionOpened': {
      const d = event.data;
      return {
        ...s,
        status: 'active',
        conversationId: d.conversationId,
        agentNumber: d.agentNumber,
        userNumber: d.userNumber,
        route: d.route,
        engaged: false,
        lastActivityAt: d.openedAt,
        generation: s.generation + 1,
      };
    }
    case 'SmsUserMessageReceived': {
      const recent = [
        ...s.recent,
        { providerMessageId: event.data.providerMessageId, conversationId: event.data.conversationId },
      ].slice(-REMEMBERED_DELIVERIES);
      return {
        ...s,
        status: 'active',
        engaged: true,
        lastActivityAt: event.data.receivedAt,
        generation: event.data.generation,
        recent,
      };
    }
    case 'SmsIdleWarningSent':
      return { ...s, status: 'warning', lastActivityAt: event.data.sentAt, generation: event.data.generation };
    case 'SmsSessionEnded':
      return { ...s, status: 'ended' };
    default:
      return s;
  }
}

/** The session still takes messages; a warning past its reply window counts as over even before its timer ran. */
function isOpen(s: SmsSessionState, now: string): boolean {
  if (s.status === 'active') return true;
  return s.status === 'warning' && Date.parse(now) < Date.parse(s.lastActivityAt) + WARNING_REPLY_MS;
}

const ended = (s: SmsSessionState, now: string, reason: SmsSessionEndReason): SmsSessionEvent => ({
  type: 'SmsSessionEnded',
  data: { conversationId: s.conversationId, endedAt: now, reason },
});

function decide(command: SmsSessionCommand, s: SmsSessionState): SmsSessionEvent[] {
  switch (command.type) {
    case 'OpenOutbound': {
      // Each outbound request opens a new session (interface.md "SMS API"); an open one ends first.
      const before: SmsSessionEvent[] =
        s.status === 'active' || s.status === 'warning' ? [ended(s, command.now, 'replaced')] : [];
      const { conversationId, agentNumber, userNumber, text, route, now } = command;
      return [
        ...before,
        {
          type: 'SmsSessionOpened',
          data: { conversationId, agentNumber, userNumber, by: 'outbound', route, greeting: text, openedAt: now },
        },
      ];
    }
    case 'ReceiveInbound': {
      if (s.recent.some((r) => r.providerMessageId === command.providerMessageId)) return [];
      const { now } = command;
      if (isOpen(s, now)) {
        return [
          {
            type: 'SmsUserMessageReceived',
            data: {
              conversationId: s.conversationId,
              text: command.text,
              providerMessageId: command.providerMessageId,
              receivedAt: now,
              generation: s.generation + 1,
            },
          },
        ];
      }
      const { deploymentId, ...rest } = command.route;
      if (deploymentId === null)
        throw new DomainError(
          'NO_ACTIVE_DEPLOYMENT',
          `no deployment is active in ${command.route.environment} for this number's agent`,
          404,
        );
      // a warning whose window passed while its timer had not run yet ends here, as its timer would have
      const before: SmsSessionEvent[] = s.status === 'warning' ? [ended(s, now, 'idle')] : [];
      const conversationId = command.newConversationId;
      return [
        ...before,
        {
          type: 'SmsSessionOpened',
          data: {
            conversationId,
            agentNumber: command.agentNumber,
            userNumber: command.userNumber,
            by: 'inbound',
            route: { ...rest, deploymentId },
            greeting: null,
            openedAt: now,
          },
        },
        {
          type: 'SmsUserMessageReceived',
          data: {
            conversationId,
            text: command.text,
            providerMessageId: command.providerMessageId,
            receivedAt: now,
            generation: s.generation + 2,
          },
        },
      ];
    }
    case 'IdleTimerFired':
      if (s.status !== 'active' || !s.engaged || command.generation !== s.generation) return [];
      return [
        {
          type: 'SmsIdleWarningSent',
          data: {
            conversationId: s.conversationId,
            text: command.warningText,
            sentAt: command.now,
            generation: s.generation + 1,
          },
        },
      ];
    case 'WarningTimerFired':
      if (s.status !== 'warning' || command.generation !== s.generation) return [];
      return [ended(s, command.now, 'idle')];
    case 'EndSession':
      if ((s.status !== 'active' && s.status !== 'warning') || s.conversationId !== command.conversationId) return [];
      return [ended(s, command.now, 'agent')];
  }
}

export const smsSessionDecider: Decider<SmsSessionState, SmsSessionCommand, SmsSessionEvent> = {
  initialState,
  evolve,
  decide,
};

export const smsSessionStream = (agentNumber: string, userNumber: string) => `sms-session-${agentNumber}-${userNumber}`;

/** The conversation a provider message went to, when this pair has seen it. */
export const deliveredTo = (s: SmsSessionState, providerMessageId: string) =>
  s.recent.find((r) => r.providerMessageId === providerMessageId)?.conversationId ?? null;

export const idleDueAt = (receivedAt: string) => new Date(Date.parse(receivedAt) + IDLE_WARNING_MS).toISOString();
export const warningDueAt = (sentAt: string) => new Date(Date.parse(sentAt) + WARNING_REPLY_MS).toISOString();
