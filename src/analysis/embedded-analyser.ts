import type { AnalysisField } from '../agents/analysis-settings';
import type { ConversationAnalysedData } from '../conversations/conversation.events';
import { outcomeOfFacts, type ConversationFacts } from './conversation-facts';

/** The user's words a summary quotes, at most: a summary, not a transcript. */
const QUOTE_LIMIT = 300;

const ENDINGS: Record<string, string> = {
  user: 'the user ended it',
  agent: 'the agent ended it',
  handoff: 'the agent handed it to a person',
  timeout: 'it timed out',
  crash: 'it was cut off',
  not_connected: 'the call never connected',
};

const quote = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT - 1)}…` : flat;
};

/**
 * Post-call analysis without a model (contract §24): an extractive summary (the user's first
 * request, the topics cited, the outcome) and every custom field null, since nothing here can tell
 * their values. Deterministic: the same conversation always reads the same.
 */
export function embeddedAnalysis(facts: ConversationFacts, fields: readonly AnalysisField[]): ConversationAnalysedData {
  const outcome = outcomeOfFacts(facts);
  const request =
    facts.firstRequest !== '' ? `The user asked: "${quote(facts.firstRequest)}".` : 'The user said nothing.';
  const topics = facts.topics.length > 0 ? ` Topics cited: ${facts.topics.join(', ')}.` : ' No topic was cited.';
  const ending = facts.endReason ? ` (${ENDINGS[facts.endReason] ?? facts.endReason})` : '';
  const summary =
    outcome === 'not_connected'
      ? `The call did not connect. Outcome: ${outcome}.`
      : `${request}${topics} Outcome: ${outcome}${ending}.`;
  return {
    outcome,
    topics: facts.topics,
    summary,
    fields: Object.fromEntries(fields.map((f) => [f.name, null])),
    analyser: 'embedded',
  };
}
