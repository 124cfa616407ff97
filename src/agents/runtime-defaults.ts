/**
 * Below this, the best hit is not cited: the turn is out of domain (the default of an agent's
 * `confidence_threshold`). Confidence is the idf-weighted share of the query's words a topic
 * matches (src/runtime/retrieval/topic-index.ts), so 0.4 asks for clearly more than a third of
 * what the user said (by weight) to be about the topic; one exact word of two is 0.5, one
 * misspelled word alone is 0.5–0.75, a lone short word one edit from a known one is 0.35 (not
 * enough).
 */
export const OUT_OF_DOMAIN_CONFIDENCE = 0.22;

/** What an agent's runtime settings default to (an absent setting follows these, as they change). */
export const FALLBACK_RESPONSE = "I'm sorry, I can't help with that. Could you rephrase your question?";

export const RUNTIME_DEFAULTS = {
  confidence_threshold: OUT_OF_DOMAIN_CONFIDENCE,
  fallback_text: FALLBACK_RESPONSE,
  small_talk: true,
} as const;
