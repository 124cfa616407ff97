/**
 * Deterministic synthetic knowledge bases and queries, for the retrieval performance test and bench.
 * Words follow a Zipf law over a vocabulary of real support words followed by made-up product and
 * place names, interleaved with stopwords, so posting lists have realistic lengths (the commonest
 * content words appear in most topics, most words in few).
 */
import type { IndexableTopic } from './topic-index';

/** An active topic from its id, name, text and example queries (the retrieval specs' knowledge bases). */
export function activeTopic(id: string, name: string, content: string, exampleQueries: string[] = []): IndexableTopic {
  return { id, name, content, exampleQueries, isActive: true };
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON =
  'order account payment refund delivery card help support service customer time days number change ' +
  'product price email phone address store online app password cancel return item items charge charged ' +
  'shipping package parcel tracking contact team request information details problem issue working ' +
  'open hours week month year subscription plan upgrade downgrade billing invoice receipt discount code ' +
  'voucher gift balance bank transfer fee fees login sign reset update profile settings notification ' +
  'message call agent manager complaint feedback review rating warranty repair replacement damaged broken ' +
  'missing wrong late early delay delayed express standard international country city location branch ' +
  'appointment booking reservation schedule available availability stock size colour color model version ' +
  'device laptop mobile tablet screen battery charger cable internet wifi network connection speed data ' +
  'limit usage contract renewal expiry expired verify verification identity document passport licence ' +
  'insurance claim policy cover premium quote loan mortgage interest rate savings deposit withdrawal ' +
  'transaction statement overdraft credit debit pin security fraud stolen lost blocked unlock freeze ' +
  'privacy consent marketing newsletter unsubscribe delete personal export report accessibility language ' +
  'collection pickup courier driver weekend holiday bank tax vat business membership loyalty points reward';

const SYLLABLES =
  'ka lo mi ra ten vor za qu el an dri pel mon sta xi ber tul gan ro fi ne sho lux ar vin ko da pra lem'.split(' ');
const FILLER =
  'the a to of and you your we our is are for in on with can be will if this that it at by from or please'.split(' ');
const OUT_OF_DOMAIN = 'weather mars volcano poetry dinosaur orchestra football galaxy recipe penguin telescope'.split(
  ' ',
);

function vocabulary(size: number, random: () => number): string[] {
  const words = [...new Set(COMMON.split(/\s+/))];
  const made = new Set(words);
  while (made.size < size) {
    const parts = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < parts; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    made.add(w);
  }
  return [...made];
}

/** Samples ranks 0..n-1 with probability ∝ 1/(rank+1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface SyntheticKnowledgeBase {
  topics: Array<IndexableTopic & { actions: string }>;
  queries: string[];
}

/**
 * `topicCount` topics (names of 2–4 words, 50–150 words of content, 3–10 example queries) and
 * `queryCount` varied queries: example queries, paraphrases from content, misspellings, long
 * rambling questions and out-of-domain ones.
 */
export function syntheticKnowledgeBase(topicCount: number, queryCount: number, seed = 42): SyntheticKnowledgeBase {
  const random = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const words = vocabulary(8000, random);
  const rank = zipf(words.length, 1.0, random);
  const word = () => words[rank()];
  const sentence = (n: number, own: string[] = []) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      if (random() < 0.35) out.push(pick(FILLER));
      out.push(own.length > 0 && random() < 0.5 ? pick(own) : word());
    }
    return out.join(' ');
  };

  const topics: SyntheticKnowledgeBase['topics'] = [];
  for (let t = 0; t < topicCount; t++) {
    // A topic is about a few specific words (rarer than average), which its name and queries repeat.
    const own = Array.from({ length: int(3, 6) }, () => words[Math.min(words.length - 1, 50 + rank() * 3)]);
    const name = own.slice(0, int(2, 4)).join(' ');
    const content = Array.from({ length: int(4, 10) }, () => `${sentence(int(8, 16), own)}.`).join(' ');
    const exampleQueries = Array.from({ length: int(3, 10) }, () => `how do I ${sentence(int(2, 6), own)}`);
    topics.push({
      id: `topic-${t}`,
      name: name.charAt(0).toUpperCase() + name.slice(1),
      content,
      exampleQueries,
      actions: '',
      isActive: true,
    });
  }

  const typo = (w: string) => {
    if (w.length < 4) return w;
    const i = int(1, w.length - 2);
    return random() < 0.5 ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w.slice(0, i) + w.slice(i + 1);
  };
  const queries: string[] = [];
  for (let q = 0; q < queryCount; q++) {
    const topic = pick(topics);
    const kind = q % 6;
    if (kind === 0) queries.push(pick(topic.exampleQueries));
    else if (kind === 1) queries.push(`can you tell me about ${topic.name.toLowerCase()}`);
    else if (kind === 2)
      queries.push(
        pick(topic.exampleQueries)
          .split(' ')
          .map((w) => (random() < 0.4 ? typo(w) : w))
          .join(' '),
      );
    else if (kind === 3) queries.push(`what is ${sentence(int(2, 5))}`);
    else if (kind === 4) queries.push(`hello I have a question ${sentence(int(10, 20))} thanks`);
    else queries.push(`what about the ${pick(OUT_OF_DOMAIN)} on ${pick(OUT_OF_DOMAIN)}`);
  }
  return { topics, queries };
}
