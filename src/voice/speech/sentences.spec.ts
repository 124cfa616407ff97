import { SentenceSplitter, sentencesOf } from './sentences';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

describe('SentenceSplitter', () => {
  it('gives each sentence as soon as the chunk after its stop arrives', () => {
    const s = new SentenceSplitter();
    expect(s.push('Hello the')).toEqual([]);
    expect(s.push('re. We are op')).toEqual(['Hello there.']);
    expect(s.push('en nine to five! Any')).toEqual(['We are open nine to five!']);
    expect(s.push(' questions?')).toEqual([]);
    expect(s.flush()).toEqual(['Any questions?']);
    expect(s.flush()).toEqual([]);
  });

  it('does not cut decimals, and cuts a very long run-on sentence at a comma', () => {
    const s = new SentenceSplitter();
    expect(s.push('It costs 4.50 today')).toEqual([]);
    const long = `${'word '.repeat(30)}, ${'more '.repeat(10)}`;
    const out = s.push(long);
    expect(out).toHaveLength(1);
    expect(out[0].startsWith('It costs 4.50 today')).toBe(true);
    expect(out[0].endsWith(',')).toBe(true);
  });

  it('reads a whole answer or a stream of chunks alike', async () => {
    const all = async (it: AsyncIterable<string>) => {
      const out: string[] = [];
      for await (const x of it) out.push(x);
      return out;
    };
    expect(await all(sentencesOf('One. Two? Three'))).toEqual(['One.', 'Two?', 'Three']);
    expect(await all(sentencesOf(chunks('On', 'e. T', 'wo.')))).toEqual(['One.', 'Two.']);
    expect(await all(sentencesOf(''))).toEqual([]);
  });
});
