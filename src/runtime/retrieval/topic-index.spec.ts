import { performance } from 'node:perf_hooks';
import { activeTopic, syntheticKnowledgeBase } from './synthetic';
import { OUT_OF_DOMAIN_CONFIDENCE, TopicIndex, transferablesOf, type IndexableTopic } from './topic-index';

const topic = (
  id: string,
  name: string,
  content: string,
  exampleQueries: string[],
  isActive = true,
): IndexableTopic => ({
  id,
  name,
  content,
  exampleQueries,
  isActive,
});

const KB: IndexableTopic[] = [
  topic(
    'refunds',
    'Refunds',
    'You can ask for a refund within 30 days of purchase. Refunds go back to the original payment method within 5 working days.',
    ['how do I get my money back', 'can I have a refund', 'where is my refund'],
  ),
  topic(
    'delivery',
    'Delivery times',
    'Standard delivery takes 3 to 5 working days; express delivery arrives the next working day. Deliveries are not made on Sundays.',
    ['when will my order arrive', 'how long does shipping take', 'track my parcel'],
  ),
  topic(
    'hours',
    'Opening hours',
    'Our stores are open from 9am to 6pm Monday to Saturday and closed on Sundays and bank holidays.',
    ['when are you open', 'what time do you close'],
  ),
  topic(
    'cancel',
    'Cancellation',
    'An order can be cancelled free of charge until it ships. After that, return the parcel for a refund instead.',
    ['cancel my order', 'stop my order'],
  ),
  topic(
    'charges',
    'Unexpected charges',
    'If you see a charge you do not recognise, check whether it is a pending authorisation; these disappear within 3 days.',
    ['why was I charged twice', 'unknown charge on my card'],
  ),
  topic('fr-refund', 'Remboursement', 'Le remboursement est effectué sous 14 jours sur le moyen de paiement initial.', [
    'comment obtenir un remboursement',
  ]),
  topic('old', 'Passport renewal', 'Passport renewals are handled at the front desk.', ['renew my passport'], false),
];

const index = TopicIndex.build(KB);
const best = (q: string) => index.search(q)[0];

describe('TopicIndex', () => {
  it('answers an exact question with its topic, well above the threshold', () => {
    const hit = best('how do I get a refund');
    expect(hit.topicId).toBe('refunds');
    expect(hit.name).toBe('Refunds');
    expect(hit.confidence).toBeGreaterThan(OUT_OF_DOMAIN_CONFIDENCE + 0.3);
    expect(hit.confidence).toBeLessThanOrEqual(1);
  });

  it('matches inflected forms', () => {
    expect(best('I was refunded the wrong amount').topicId).toBe('refunds');
    expect(best('are there deliveries at the weekend').topicId).toBe('delivery');
    expect(best('charging my card twice').topicId).toBe('charges');
    expect(best('is cancelling free').topicId).toBe('cancel');
  });

  it('matches accented and unaccented spellings', () => {
    const hit = best('remboursément');
    expect(hit.topicId).toBe('fr-refund');
    expect(hit.confidence).toBe(1);
    expect(best('REMBOURSEMENT').topicId).toBe('fr-refund');
  });

  it('tolerates misspellings, at a discount', () => {
    const typo = best('refnud');
    expect(typo.topicId).toBe('refunds');
    expect(typo.confidence).toBeGreaterThanOrEqual(OUT_OF_DOMAIN_CONFIDENCE);
    expect(typo.confidence).toBeLessThan(best('refund').confidence);
    expect(best('cancelaton').topicId).toBe('cancel');
    expect(best('cancelation').topicId).toBe('cancel');
    expect(best('cancelation').confidence).toBe(1);
    expect(best('how long does delivary take').topicId).toBe('delivery');
  });

  it('puts unrelated questions below the threshold', () => {
    for (const q of ["what's the weather on Mars", 'who won the football match', 'recipe for banana bread', 'mars']) {
      const hit = index.search(q)[0];
      expect(hit === undefined || hit.confidence < OUT_OF_DOMAIN_CONFIDENCE).toBe(true);
    }
  });

  it('does not cite a topic for a lone short word one edit away from a known one', () => {
    const kb = TopicIndex.build([
      topic('marks', 'Bookmarks', 'Mark a page to find it again.', ['how do I mark a page']),
    ]);
    const hit = kb.search('mars')[0];
    expect(hit.topicId).toBe('marks');
    expect(hit.confidence).toBeLessThan(OUT_OF_DOMAIN_CONFIDENCE);
    expect(kb.search('mark')[0].confidence).toBe(1);
  });

  it("meets a topic through a customer's synonym, at a discount", () => {
    const kb = TopicIndex.build([
      topic('hours', 'Opening hours', 'We open at 9am and close at 6pm.', ['when are you open']),
      topic('kids', 'Children', 'Children eat for free on Sundays.', ['menu for children']),
    ]);
    const shut = kb.search('what time do you shut')[0];
    expect(shut.topicId).toBe('hours');
    expect(shut.confidence).toBeGreaterThanOrEqual(OUT_OF_DOMAIN_CONFIDENCE);
    expect(shut.confidence).toBeLessThan(kb.search('what time do you close')[0].confidence);
    expect(kb.search('do kids eat free')[0].topicId).toBe('kids');
  });

  it('lets filler words neither find a topic on their own nor count against one', () => {
    const kb = TopicIndex.build([
      topic('hours', 'Opening hours', 'Tell us when you need us: we open at 9am.', ['when are you open']),
    ]);
    // "need" and "tell" are in the topic, but a question made of them and an unknown word is not about it
    const hit = kb.search('tell me what you need for the weather')[0];
    expect(hit === undefined || hit.confidence < OUT_OF_DOMAIN_CONFIDENCE).toBe(true);
    // filler around a real match does not drag it below the threshold
    expect(kb.search('I really need to know if you are open today')[0].confidence).toBeGreaterThan(0.5);
  });

  it('meets hyphenated and run-together words either way', () => {
    const kb = TopicIndex.build([
      topic('wifi', 'Wi-Fi password', 'The Wi-Fi password is on the router.', ['wifi key']),
      topic('chairs', 'Children', 'We have high chairs for babies.', ['kids menu']),
      topic('join', 'Joining', 'Sign up in the app.', ['how do I sign up']),
    ]);
    expect(kb.search('wifi password')[0].confidence).toBe(1);
    expect(kb.search('have you got highchairs')[0].topicId).toBe('chairs');
    expect(kb.search('can I signup online')[0].topicId).toBe('join');
  });

  it('ranks the better topic first when two share words', () => {
    // Both mention refund; only one is about it.
    const hits = index.search('refund');
    expect(hits.map((h) => h.topicId).slice(0, 2)).toEqual(['refunds', 'cancel']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    // Both are about orders; "cancel" decides.
    expect(best('cancel my order').topicId).toBe('cancel');
  });

  it('lets rare terms outweigh common ones', () => {
    const common = Array.from({ length: 20 }, (_, i) =>
      topic(`common-${i}`, `Order help ${i}`, `Help with your order, part ${i}. Order questions are answered here.`, [
        'order help',
      ]),
    );
    const kb = TopicIndex.build([
      ...common,
      topic('gift', 'Gift wrapping', 'We wrap any order as a gift for 2 EUR.', ['can you wrap a present']),
    ]);
    const hits = kb.search('order gift');
    expect(hits[0].topicId).toBe('gift');
    // The rare term carries most of the confidence.
    expect(hits[0].confidence).toBe(1);
    expect(hits[1].confidence).toBeLessThan(0.5);
  });

  it('never indexes inactive topics', () => {
    expect(index.size).toBe(KB.length - 1);
    for (const hit of index.search('renew my passport')) expect(hit.topicId).not.toBe('old');
  });

  it('returns nothing for an empty or stopword-only query', () => {
    expect(index.search('')).toEqual([]);
    expect(index.search('   ?! ')).toEqual([]);
    expect(index.search('how do I')).toEqual([]);
  });

  it('returns nothing from an empty index', () => {
    const empty = TopicIndex.build([]);
    expect(empty.size).toBe(0);
    expect(empty.search('refund')).toEqual([]);
    expect(TopicIndex.build([KB[6]]).size).toBe(0);
  });

  it('respects the limit, best first', () => {
    const hits = index.search('order refund delivery charge', 2);
    expect(hits).toHaveLength(2);
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
    expect(index.search('order', 0)).toEqual([]);
  });

  it('gives the same answer on repeated searches (no state leaks between queries)', () => {
    const first = index.search('when will my parcel arrive');
    index.search('refnud cancelaton');
    expect(index.search('when will my parcel arrive')).toEqual(first);
  });

  it('comes back from its parts, moved through a structured clone as the index thread posts them, searching alike', () => {
    const kb = syntheticKnowledgeBase(300, 200, 7);
    const built = TopicIndex.build(kb.topics);
    const parts = built.parts();
    const moved = structuredClone(parts, { transfer: transferablesOf(parts) });
    // the buffers went with the clone: what was built can no longer be read from this side
    expect(parts.bm25.docs.length).toBe(0);
    const rebuilt = TopicIndex.fromParts(moved);
    const fresh = TopicIndex.build(kb.topics);
    expect(rebuilt.size).toBe(fresh.size);
    for (const q of [...kb.queries.slice(0, 200), 'refnud cancelaton', 'zzzz qqqq'])
      expect(rebuilt.search(q)).toEqual(fresh.search(q));
  });

  it('answers a query the same whatever it answered before (what it remembers of words changes nothing)', () => {
    const kb = syntheticKnowledgeBase(40, 400, 7);
    const warm = TopicIndex.build(kb.topics);
    // every query twice over, so each word is met again after the queries that used it first
    const asked = [...kb.queries, ...kb.queries.slice().reverse()];
    const warmAnswers = asked.map((q) => warm.search(q, 5));
    for (let i = 0; i < asked.length; i += 7) {
      const fresh = TopicIndex.build(kb.topics);
      expect(warmAnswers[i]).toEqual(fresh.search(asked[i], 5));
    }
    // "sign up" written as "signup" accounts for its words, so the phrase weighs nothing in that
    // query; "signing up" is not joined, so there the phrase is what accounts for "signing"
    const topics = [activeTopic('a', 'Membership', 'Signup online to join the club as a member.')];
    const index = TopicIndex.build(topics);
    index.search('sign up');
    expect(index.search('signing up')).toEqual(TopicIndex.build(topics).search('signing up'));
  });

  it('searches 5,000 topics with p50 well under a millisecond', () => {
    const kb = syntheticKnowledgeBase(5000, 1000);
    const started = performance.now();
    const big = TopicIndex.build(kb.topics);
    const buildMs = performance.now() - started;
    expect(big.size).toBe(5000);
    const warmUp = kb.queries.slice(500);
    for (const q of warmUp) big.search(q);
    const times: number[] = [];
    let found = 0;
    for (const q of kb.queries.slice(0, 500)) {
      const t = performance.now();
      const hits = big.search(q);
      times.push(performance.now() - t);
      if (hits.length > 0) found++;
    }
    times.sort((a, b) => a - b);
    const p50 = times[250];
    const p99 = times[495];
    process.stdout.write(
      `retrieval over 5,000 topics: build ${buildMs.toFixed(0)} ms, p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms\n`,
    );
    expect(found).toBeGreaterThan(400);
    // The target is 1 ms; the test allows 2 ms so a noisy machine does not fail it.
    expect(p50).toBeLessThanOrEqual(2);
  });
});
