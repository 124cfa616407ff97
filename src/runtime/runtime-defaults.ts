import { OUT_OF_DOMAIN_CONFIDENCE } from './retrieval/topic-index';

/** What an agent's runtime settings default to (an absent setting follows these, as they change). */
export const FALLBACK_RESPONSE = "I'm sorry, I can't help with that. Could you rephrase your question?";

export const RUNTIME_DEFAULTS = {
  confidence_threshold: OUT_OF_DOMAIN_CONFIDENCE,
  fallback_text: FALLBACK_RESPONSE,
  small_talk: true,
} as const;
