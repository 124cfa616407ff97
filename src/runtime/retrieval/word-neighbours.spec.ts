import { activeTopic } from './synthetic';
import { OUT_OF_DOMAIN_CONFIDENCE, TopicIndex } from './topic-index';
import { neighboursOf } from './word-neighbours';

describe('word neighbours (GloVe, shipped in the repository)', () => {
  it('gives related words, most similar first, and nothing for a word it does not know', () => {
    const near = neighboursOf('mortgage');
    expect(near.map((n) => n.word)).toEqual(expect.arrayContaining(['mortgages', 'loans', 'lending']));
    for (let i = 1; i < near.length; i++) expect(near[i].similarity).toBeLessThanOrEqual(near[i - 1].similarity);
    expect(near.every((n) => n.similarity >= 0.55 && n.similarity <= 1)).toBe(true);
    expect(neighboursOf('qwzxv')).toEqual([]);
    expect(neighboursOf('')).toEqual([]);
  });

  it('lets a question reach a topic through a word the topics never use (issue 54)', () => {
    const index = TopicIndex.build([
      activeTopic('mortgage', 'Mortgage', 'Our mortgages: fixed and tracker rates for buying a home.', [
        'mortgage rates',
      ]),
      activeTopic('address', 'Change address', 'Update your home address in the app under Profile.', ['new address']),
    ]);
    // "loan" appears in no topic; GloVe puts it next to "mortgage"
    const [hit] = index.search('loan options');
    expect(hit.topicId).toBe('mortgage');
    // a word the index knows is not widened: "address" still means the address topic alone
    expect(index.search('address').map((h) => h.topicId)).toEqual(['address']);
    // weakly: a neighbour alone does not make an off-topic question look answered
    expect(index.search('bank robbery').every((h) => h.confidence < OUT_OF_DOMAIN_CONFIDENCE)).toBe(true);
  });

  it('reads a word one edit from an indexed one as that word misspelled, not through its neighbours', () => {
    const index = TopicIndex.build([
      activeTopic('classes', 'Beginners', 'Classes for the novice swimmer.'),
      activeTopic('leaving', 'Leaving', 'You may leave without delay.'),
    ]);
    // "notice" is one edit from "novice", and a GloVe neighbour of "without"
    expect(index.search('notice')[0]?.topicId).toBe('classes');
  });
});
