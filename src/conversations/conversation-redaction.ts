import { redact } from '../privacy/redact';
import type { RedactKind } from '../privacy/redact-kinds';
import { redactValue } from '../privacy/redact-value';
import type { ConversationEvent, TurnData } from './conversation.events';

/**
 * The state keys the platform sets at the start to reach the user again (an SMS answer, a delayed
 * response, a session's end read them back): the conversation's addressing, like the
 * ConversationStarted numbers beside them, not something said in it. Actions cannot write them.
 */
const ADDRESSING_KEYS: ReadonlySet<string> = new Set(['caller_number', 'agent_number']);

/**
 * The events as a deployment with `privacy.redact` records them (contract §24): every text a user or
 * the agent wrote, and every value a turn put into state, metadata, a function call's arguments, a
 * metric, a handoff or an external event's body, with the kinds named replaced by their tokens. The
 * rest (ids, times, node names, topic names, the numbers that address the conversation) is kept.
 */
export function redactEvents(events: ConversationEvent[], kinds: readonly RedactKind[]): ConversationEvent[] {
  return events.map((event): ConversationEvent => {
    switch (event.type) {
      case 'TurnRecorded':
        return { ...event, data: redactTurn(event.data, kinds) };
      case 'StateChanged':
        return { ...event, data: { changes: redactState(event.data.changes, kinds) } };
      case 'MetricLogged':
        return { ...event, data: { ...event.data, value: redact(event.data.value, kinds) } };
      case 'HandoffRequested':
        return {
          ...event,
          data: {
            ...event.data,
            reason: redact(event.data.reason, kinds),
            data: redactValue(event.data.data, kinds),
          },
        };
      case 'ExternalEventReceived':
        return { ...event, data: { ...event.data, body: redactBody(event.data.body, kinds) } };
      default:
        return event;
    }
  });
}

function redactTurn(turn: TurnData, kinds: readonly RedactKind[]): TurnData {
  return {
    ...turn,
    userInput: redact(turn.userInput, kinds),
    agentResponse: redact(turn.agentResponse, kinds),
    entities: redactValue(turn.entities, kinds),
    inputMetadata: redactValue(turn.inputMetadata, kinds),
    functionEvents: turn.functionEvents.map((f) => ({
      ...f,
      args: redactValue(f.args, kinds),
      ...(f.error !== undefined ? { error: redact(f.error, kinds) } : {}),
    })),
  };
}

function redactState(changes: Record<string, unknown>, kinds: readonly RedactKind[]): Record<string, unknown> {
  const out = redactValue(changes, kinds);
  for (const key of ADDRESSING_KEYS) if (Object.hasOwn(changes, key)) out[key] = changes[key];
  return out;
}

/**
 * An external event's body is kept as its bytes (base64). Read as Latin-1, each byte is one
 * character, and every shape redaction looks for is ASCII: the bytes around a match, text or not,
 * come back as they were.
 */
function redactBody(base64: string, kinds: readonly RedactKind[]): string {
  const text = Buffer.from(base64, 'base64').toString('latin1');
  const redacted = redact(text, kinds);
  return redacted === text ? base64 : Buffer.from(redacted, 'latin1').toString('base64');
}
