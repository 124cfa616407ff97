import { findPhrases, type PhraseLookup } from './phrases';
import { activeTopic } from './synthetic';
import { tokeniseClauses } from '../../platform/text/text';
import { Thesaurus, thesaurus, termStem } from './thesaurus';
import { OUT_OF_DOMAIN_CONFIDENCE, TopicIndex } from './topic-index';

const SMALL = new Thesaurus(
  [
    'at_all anyhow3',
    'credit_card charge_card3 plastic3',
    'cut cutting2',
    'cut_out cutout2 cut2',
    'cutting_out excision3',
    'log_in log_on3 access1',
    'sign_up sign_on3 join1',
    'top_up refill3',
    'up_to_date current2',
  ].join('\n'),
);

const phrasesOf = (text: string, lookup: PhraseLookup = SMALL, corrections?: (w: string) => string[]) =>
  findPhrases(tokeniseClauses(text), lookup, corrections).map((m) => m.key);

describe('Thesaurus phrases', () => {
  it('finds a phrase among adjacent words, its first and last words inflected', () => {
    expect(SMALL.phrase(['sign', 'up'])).toBe('sign_up');
    expect(SMALL.phrase(['signed', 'up'])).toBe('sign_up');
    expect(SMALL.phrase(['logging', 'in'])).toBe('log_in');
    expect(SMALL.phrase(['credit', 'cards'])).toBe('credit_card');
    expect(SMALL.phrase(['up', 'to', 'date'])).toBe('up_to_date');
    expect(SMALL.phrase(['sign', 'in'])).toBeNull();
    expect(SMALL.phrase(['sign'])).toBeNull();
    expect(SMALL.phraseAt(['i', 'signed', 'up', 'today'], 1)).toEqual({ key: 'sign_up', length: 2 });
  });

  it('reads an inflected verb as the phrasal verb before a compound noun', () => {
    // WordNet has the noun "cutting out" (excision) and the verb "cut out".
    expect(SMALL.phrase(['cutting', 'out'])).toBe('cut_out');
  });

  it('relates a phrase to words, stemmed as the index stems a phrase', () => {
    expect(SMALL.related('sign_up')).toEqual([
      { word: 'sign_on', relation: 3 },
      { word: 'join', relation: 1 },
    ]);
    expect(termStem('signing_up')).toBe('sign_up');
    expect(termStem('credit_cards')).toBe('credit_card');
    expect(SMALL.relatedStems('credit_card').map((r) => r.stem)).toEqual(['charg_card', 'plastic']);
  });

  it('ships the phrasal verbs and compounds customers write', () => {
    const shipped = thesaurus();
    expect(shipped.phrase(['sign', 'up'])).toBe('sign_up');
    expect(shipped.phrase(['log', 'in'])).toBe('log_in');
    expect(shipped.phrase(['checked', 'in'])).toBe('check_in');
    expect(shipped.phrase(['credit', 'cards'])).toBe('credit_card');
    expect(shipped.related('sign_up').map((r) => r.word)).toEqual(expect.arrayContaining(['sign_on', 'join']));
    // A word reaches phrases too, so a topic that says "log in" meets "log on".
    expect(shipped.related('log_on').map((r) => r.word)).toContain('log_in');
    // No names: "New York" is only ever written with capitals in WordNet.
    expect(shipped.phrase(['new', 'york'])).toBeNull();
  });
});

describe('findPhrases', () => {
  it('reads a phrase whose particle is a stopword, at the end of a query', () => {
    expect(phrasesOf('how do I sign up')).toEqual(['sign_up']);
    expect(phrasesOf('I cant log in to the app')).toEqual(['log_in']);
    expect(phrasesOf('my broadband keeps cutting out')).toEqual(['cut_out']);
  });

  it('keeps the words as written and finds several phrases', () => {
    const found = findPhrases(tokeniseClauses('Signed up, then topped up my credit card'), SMALL);
    expect(found).toEqual([
      { key: 'sign_up', words: ['signed', 'up'] },
      { key: 'top_up', words: ['topped', 'up'] },
      { key: 'credit_card', words: ['credit', 'card'] },
    ]);
  });

  it('prefers three words to two', () => {
    expect(phrasesOf('is the app up to date')).toEqual(['up_to_date']);
  });

  it('reads no phrase across punctuation', () => {
    expect(phrasesOf('where do I sign? Up the stairs')).toEqual([]);
    expect(phrasesOf('log, in that order')).toEqual([]);
    expect(phrasesOf('sign (up)')).toEqual([]);
  });

  it('reads no phrase of function words alone, nor of other scripts or digits', () => {
    expect(phrasesOf('not at all')).toEqual([]);
    expect(phrasesOf('sign 2 up')).toEqual([]);
  });

  it('corrects one misspelled word of a phrase when asked', () => {
    const corrections = (word: string) => (word === 'sigm' ? ['sign'] : []);
    expect(phrasesOf('how do I sigm up', SMALL)).toEqual([]);
    expect(phrasesOf('how do I sigm up', SMALL, corrections)).toEqual(['sign_up']);
    expect(phrasesOf('sign uo', SMALL, (word) => (word === 'uo' ? ['up'] : []))).toEqual(['sign_up']);
    // a function word is not "corrected" into another ("sign in" is not "sign up")
    expect(phrasesOf('sign in', SMALL, () => ['up'])).toEqual([]);
  });
});

describe('TopicIndex with phrases', () => {
  const topic = activeTopic;
  const index = TopicIndex.build([
    topic('repay', 'Repaying early', 'You can repay at any time without a fee.'),
    topic('absence', 'Missed visits', 'If you do not appear for a visit we charge a fee.'),
    topic('diary', 'Training diary', 'Keep a log of your training in the diary at reception.'),
    topic('access', 'Website trouble', 'If you cannot log on to the website, reset your password.'),
    topic('checkin', 'Check in', 'Check in at the front desk with your booking reference.'),
    topic('parking', 'Parking', 'There is free parking behind the building.'),
  ]);
  const top = (q: string) => index.search(q)[0];
  const answered = (q: string) => index.search(q).filter((h) => h.confidence >= OUT_OF_DOMAIN_CONFIDENCE);
  const scoreOf = (q: string, id: string) => index.search(q).find((h) => h.topicId === id)?.score ?? 0;

  it('reaches a topic through a phrase whose particle is a stopword, at the end of the query', () => {
    // "pay" and "back" alone do not answer (only "pay"'s GloVe neighbour "repay" reaches it, weakly);
    // "pay back" is "repay", "show up" a kind of "appear".
    expect(answered('pay')).toEqual([]);
    expect(top('how do I pay back')?.topicId).toBe('repay');
    expect(top('paying back?')?.topicId).toBe('repay');
    expect(top("what if I don't show up")?.topicId).toBe('absence');
    // Through the thesaurus, it reorders more than it answers: below the threshold alone.
    expect(top('how do I pay back')!.confidence).toBeLessThan(OUT_OF_DOMAIN_CONFIDENCE);
  });

  it('reads no phrase across punctuation', () => {
    expect(answered('how do I pay? back to the question')).toEqual([]);
  });

  it('meets a topic that writes a phrase through its synonym', () => {
    // Both topics say "log"; "log in" is "log on", which only the website topic says.
    expect(scoreOf('log', 'diary')).toBeGreaterThan(0);
    expect(top('i cant log in')?.topicId).toBe('access');
    expect(scoreOf('logged in again', 'access') - scoreOf('logged in again', 'diary')).toBeGreaterThan(
      scoreOf('logged again', 'access') - scoreOf('logged again', 'diary'),
    );
  });

  it('scores the phrase a topic writes above its words alone, a misspelled word of it too', () => {
    expect(scoreOf('check in desk', 'checkin')).toBeGreaterThan(scoreOf('check desk', 'checkin'));
    expect(scoreOf('chek in desk', 'checkin')).toBeGreaterThan(scoreOf('chek desk', 'checkin'));
  });

  it('counts a phrase in confidence only for the words it alone accounts for', () => {
    // "log" is the topic's word: the phrase "logging in" (reaching "log on") adds score, not a share.
    const confidenceOf = (q: string) => index.search(q).find((h) => h.topicId === 'access')!.confidence;
    expect(confidenceOf('logging in')).toBeCloseTo(confidenceOf('logging'), 10);
    expect(scoreOf('logging in', 'access')).toBeGreaterThan(scoreOf('logging', 'access'));
    const hits = index.search('can I check in at the desk');
    expect(new Set(hits.map((h) => h.topicId)).size).toBe(hits.length);
  });

  it('leaves an off-topic question below the threshold', () => {
    for (const q of ['who won the football match', 'can you pick up my kids from school']) {
      const hit = top(q);
      expect(hit === undefined || hit.confidence < OUT_OF_DOMAIN_CONFIDENCE).toBe(true);
    }
  });
});
