import { baseForms, Thesaurus, thesaurus } from './thesaurus';
import { activeTopic } from './synthetic';
import { OUT_OF_DOMAIN_CONFIDENCE, TopicIndex } from './topic-index';
import { WORDNET_THESAURUS } from './wordnet-thesaurus';

const SMALL = new Thesaurus(
  ['delay holdup3 postponement3 wait3 delayed2', 'kid child3 goat1', 'wait delay3 waiter2'].join('\n'),
);

describe('Thesaurus', () => {
  it('finds a word by binary search and reads its related words with their relation', () => {
    expect(SMALL.size).toBe(3);
    expect(SMALL.related('kid')).toEqual([
      { word: 'child', relation: 3 },
      { word: 'goat', relation: 1 },
    ]);
    expect(SMALL.related('wait')[0]).toEqual({ word: 'delay', relation: 3 });
    expect(SMALL.related('zebra')).toEqual([]);
    expect(SMALL.related('')).toEqual([]);
  });

  it('falls back to the dictionary form of an inflected word', () => {
    expect(SMALL.related('kids').map((r) => r.word)).toEqual(['child', 'goat']);
    expect(SMALL.related('waited').map((r) => r.word)).toEqual(['delay', 'waiter']);
    expect(SMALL.related('delaying').map((r) => r.word)).toContain('holdup');
    expect(baseForms('stopped')).toContain('stop');
    expect(baseForms('parties')[0]).toBe('party');
    expect(baseForms('bus')).toEqual([]);
  });

  it('gives each related stem once, with its closest relation, never the word itself', () => {
    // "delayed" stems as "delay", the word looked up: left out.
    expect(SMALL.relatedStems('delay')).toEqual([
      { stem: 'holdup', relation: 3 },
      { stem: 'postpon', relation: 3 },
      { stem: 'wait', relation: 3 },
    ]);
  });

  it('ships a sorted, well-formed table derived from WordNet', () => {
    const lines = WORDNET_THESAURUS.split('\n');
    expect(lines.length).toBeGreaterThan(40_000);
    for (let i = 1; i < lines.length; i++) expect(lines[i - 1].split(' ')[0] < lines[i].split(' ')[0]).toBe(true);
    // A word or a phrase of two or three words joined by "_", then its related words and phrases.
    const term = '[a-z]+(?:_[a-z]+){0,2}';
    const wellFormed = new RegExp(`^${term}( ${term}[123])+$`);
    for (const line of lines) expect(line).toMatch(wellFormed);
    expect(lines.filter((line) => line.split(' ')[0].includes('_')).length).toBeGreaterThan(5_000);
    expect(
      thesaurus()
        .related('physician')
        .map((r) => r.word),
    ).toContain('doctor');
    expect(
      thesaurus()
        .relatedStems('postponement')
        .map((r) => r.stem),
    ).toContain('delay');
  });
});

describe('TopicIndex with the thesaurus', () => {
  const topic = activeTopic;
  const index = TopicIndex.build([
    topic('delays', 'Flight delays', 'If your flight is delayed by more than 3 hours you may claim.', [
      'is my flight late',
    ]),
    topic('doctor', 'Seeing a doctor', 'Our doctors see patients from 8am; book at the front desk.', [
      'can I see a GP',
    ]),
    topic('parking', 'Parking', 'There is free parking behind the building.', ['where can I park']),
  ]);

  it('reaches a topic through a word it does not use', () => {
    expect(index.search('is there a physician on duty')[0].topicId).toBe('doctor');
    // With a word of the topic beside it, the question is answered.
    expect(index.search('can patients see a physician')[0].confidence).toBeGreaterThanOrEqual(OUT_OF_DOMAIN_CONFIDENCE);
    expect(index.search('what about the postponement of my flight')[0].topicId).toBe('delays');
  });

  it('counts a thesaurus word below the word itself, in score and in confidence', () => {
    const exact = index.search('doctor today')[0];
    const related = index.search('physician today')[0];
    expect(related.topicId).toBe('doctor');
    expect(related.score).toBeLessThan(exact.score);
    expect(related.confidence).toBeLessThan(exact.confidence);
  });

  it('does not make an off-topic question look answered through a rare sense', () => {
    // "bread" is also money in WordNet, "match" is also "check".
    for (const q of ['recipe for banana bread', 'who won the football match']) {
      const hit = index.search(q)[0];
      expect(hit === undefined || hit.confidence < OUT_OF_DOMAIN_CONFIDENCE).toBe(true);
    }
  });
});
