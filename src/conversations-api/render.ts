import { filterConversation, type DataAccessConfig } from '../accounts/data-access';
import type { Permission } from '../accounts/permissions';
import {
  platformDurationS,
  totalDurationS,
  type ConversationSummary,
  type TurnView,
} from '../../projections/conversations/queries';
import { metricsObject } from '../debug-chat/debug-chat.view';
import { accountRef, agentRef } from '../platform/ids/prefixed-ids';
import type { ApiVersion } from './list-query';

export interface RenderOptions {
  version: ApiVersion;
  includeLatency: boolean;
  includeContextState: boolean;
  includeTurnMetadata: boolean;
}

/** Who is asking and what the project lets them see (contract §4). */
export interface Access {
  permissions: readonly Permission[];
  config: DataAccessConfig;
}

/** Whether turns will be shown at all: when not, they need not even be read. */
export function showsTurns(access: Access): boolean {
  return access.permissions.includes('conversations') && access.config.showTranscripts;
}

/** v1 shows empty text as null; v3 and v2 as "" (interface.md "Versioning"). */
const text = (version: ApiVersion, value: string): string | null => (version === 'v1' && value === '' ? null : value);

function renderTurn(t: TurnView, o: RenderOptions): Record<string, unknown> {
  const turn: Record<string, unknown> = {
    user_input: text(o.version, t.userInput),
    user_input_datetime: text(o.version, t.userInputAt),
    barge_in: t.bargeIn,
    ...(t.dtmf ? { dtmf: t.dtmf } : {}),
    agent_response: text(o.version, t.agentResponse),
    ...(t.interrupted ? { interrupted: true } : {}),
    agent_response_datetime: text(o.version, t.agentResponseAt),
    intents: t.intents,
    entities: t.entities,
    is_ood: t.isOod,
    is_silence: t.isSilence,
  };
  if (o.version !== 'v1') {
    turn.translated_user_input = '';
    turn.english_agent_response = '';
    if (o.includeLatency) turn.latency = t.latency;
  }
  if (o.includeTurnMetadata) turn.metadata = t.metadata;
  return turn;
}

/**
 * Post-call analysis (contract §24), null until the conversation ended and was analysed. The
 * summary retells the transcript (the embedded one quotes the user), so it shows only where the
 * transcript does; the outcome, topics and custom fields show with the rest of the conversation.
 */
function renderAnalysis(a: ConversationSummary['analysis'] | null, transcripts: boolean) {
  if (!a) return null;
  return {
    outcome: a.outcome,
    topics: a.topics,
    ...(transcripts ? { summary: a.summary } : {}),
    fields: a.fields,
    analyser: a.analyser,
  };
}

/**
 * A conversation object of the Conversations API in the asked version, filtered by the key's
 * permission and the project's data access. `turns` is null when they were not read (not shown).
 */
export function renderConversation(
  s: ConversationSummary,
  turns: TurnView[] | null,
  o: RenderOptions,
  access: Access,
): Record<string, unknown> {
  const v = o.version;
  const conversation: Record<string, unknown> = {
    id: s.id,
    account_id: accountRef(s.accountId),
    project_id: agentRef(s.agentId),
    variant_id: text(v, s.variantId),
    environment: s.environment,
    started_at: s.startedAt,
    channel: text(v, s.channel),
    from_number: text(v, s.fromNumber),
    to_number: text(v, s.toNumber),
    in_progress: s.endedAt === null,
    num_turns: s.numTurns,
    total_duration: totalDurationS(s),
    polyai_duration: platformDurationS(s),
    handoff: s.handoffAt !== null,
    handoff_reason: text(v, s.handoffReason),
    handoff_destination: text(v, s.handoffDestination),
    num_silences: s.numSilences,
    num_ood: s.numOod,
    metrics: metricsObject(s.metrics),
  };
  if (v === 'v1' || o.includeContextState) {
    conversation.state = s.state;
    conversation.variant_name = text(v, s.variantName);
  }
  conversation.turns = (turns ?? []).map((t) => renderTurn(t, o));
  // v3 (contract §24), and v2, which has v3's schema (interface.md "Versioning")
  if (v !== 'v1') conversation.analysis = renderAnalysis(s.analysis ?? null, showsTurns(access));
  return filterConversation(
    conversation as Parameters<typeof filterConversation>[0],
    access.permissions,
    access.config,
  );
}
