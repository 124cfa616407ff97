/**
 * A JSGF grammar of the phrases a caller is likely to say. The embedded recogniser's free-form
 * language model hears "what are your opening hours" as "what are the odds"; choosing among the
 * deployed agent's own example queries it hears it exactly, and faster.
 */
export function normalisePhrase(phrase: string): string {
  return phrase
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The grammar, or null when no phrase can be in it: a word missing from the pronouncing
 * dictionary makes pocketsphinx refuse the whole grammar, so such phrases are left out.
 */
export function buildJsgf(phrases: readonly string[], known: (word: string) => boolean): string | null {
  const kept = new Set<string>();
  for (const phrase of phrases) {
    const words = normalisePhrase(phrase);
    if (words && words.split(' ').every(known)) kept.add(words);
    if (kept.size >= 500) break;
  }
  if (kept.size === 0) return null;
  return `#JSGF V1.0;\ngrammar parley;\npublic <utterance> = ${[...kept].join(' | ')} ;\n`;
}
