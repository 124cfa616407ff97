import {
  fuzzyPrefixes,
  semanticAlternatives,
  semanticMatch,
  transcriptMatch,
  transcriptWords,
} from './search-expression';

describe('search expressions', () => {
  it('transcript: every word, quoted, on the chosen side', () => {
    expect(transcriptMatch('Refund my "order"', null)).toBe('"refund" AND "my" AND "order"');
    expect(transcriptMatch('refund', 'user')).toBe('user_input : ("refund")');
    expect(transcriptMatch('refund', 'agent')).toBe('agent_response : ("refund")');
    expect(transcriptMatch('  !! ', null)).toBeNull();
  });

  it('semantic: meaningful words or near spellings among indexed terms', () => {
    const vocabulary = (prefix: string) =>
      ['cancel', 'candl', 'refund', 'refus', 'order'].filter((t) => t.startsWith(prefix));
    const match = semanticMatch('the cancelation of my refnd', vocabulary)!;
    expect(match).toContain('"cancelation"');
    expect(match).toContain('"refnd"');
    expect(match).toContain('"refund"');
    expect(match).not.toContain('"the"');
    expect(match.split(' OR ').length).toBeGreaterThanOrEqual(3);
    expect(semanticMatch('the of', vocabulary)).toBeNull();
  });

  it('gives the words and near spellings themselves, for a backend that builds its own query', () => {
    const asked: string[] = [];
    const vocabulary = (prefix: string) => {
      asked.push(prefix);
      return ['cancel', 'candl', 'refund', 'refus', 'order'].filter((t) => t.startsWith(prefix));
    };
    expect(transcriptWords('Refund my "order"')).toEqual(['refund', 'my', 'order']);
    expect(fuzzyPrefixes('the cancelation of my refnd, my refund')).toEqual(['ca', 're']);
    expect(semanticAlternatives('the cancelation of my refnd', vocabulary)).toEqual([
      'cancelation',
      'cancel',
      'refnd',
      'refund',
    ]);
    expect(asked.sort()).toEqual(['ca', 're']);
    expect(semanticAlternatives('the of', vocabulary)).toBeNull();
  });
});
