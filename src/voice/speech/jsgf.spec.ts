import { buildJsgf, normalisePhrase } from './jsgf';

describe('JSGF grammar of expected phrases', () => {
  const dictionary = new Set(['what', 'are', 'your', 'opening', 'hours', 'hello', "don't", 'know']);
  const known = (w: string) => dictionary.has(w);

  it('normalises case and punctuation', () => {
    expect(normalisePhrase('  What are your OPENING hours?! ')).toBe('what are your opening hours');
    expect(normalisePhrase('I don’t know; <tag> 42')).toBe("i don't know tag");
  });

  it('builds one alternative per distinct phrase', () => {
    expect(buildJsgf(['What are your opening hours?', 'Hello!', 'hello'], known)).toBe(
      '#JSGF V1.0;\ngrammar parley;\npublic <utterance> = what are your opening hours | hello ;\n',
    );
  });

  it('leaves out phrases with a word the dictionary lacks, and anything that could break the grammar', () => {
    expect(buildJsgf(['hello', 'hello parleyxyz', 'hello | <evil> ;'], known)).toBe(
      '#JSGF V1.0;\ngrammar parley;\npublic <utterance> = hello ;\n',
    );
    expect(buildJsgf(['zzz', '', '???'], known)).toBeNull();
  });
});
