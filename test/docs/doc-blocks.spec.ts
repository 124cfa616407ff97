import { commandGroups, extractBlocks, isOpen, matchesClaim } from './doc-blocks';

const DOC = [
  '# A doc',
  '',
  '```sh',
  'X=$(curl -s $API/x | jq -r .id)',
  'curl -s $API/y \\',
  '  -H "$KEY" | jq -c .',
  '# {"id":"a-…","n":2}',
  '',
  '# a comment for the reader, not a claim',
  'echo one',
  'echo two',
  '# one',
  '# two',
  '```',
  '',
  '```json',
  '{"not": "shell"}',
  '```',
  '',
  '<!-- not run: starts a server of its own -->',
  '```sh',
  'npm start',
  '```',
].join('\n');

describe('doc blocks', () => {
  it('extracts the sh blocks with their lines and the not-run marker, and nothing else', () => {
    const blocks = extractBlocks('doc.md', DOC);
    expect(blocks.map((b) => ({ index: b.index, line: b.line, skip: b.skip }))).toEqual([
      { index: 1, line: 3, skip: null },
      { index: 2, line: 21, skip: 'starts a server of its own' },
    ]);
    expect(blocks[1].text).toBe('npm start');
  });

  it('groups commands under the claim that follows them; a comment after a blank line is no claim', () => {
    const [block] = extractBlocks('doc.md', DOC);
    expect(commandGroups(block)).toEqual([
      {
        line: 4,
        commands: ['X=$(curl -s $API/x | jq -r .id)', 'curl -s $API/y \\\n  -H "$KEY" | jq -c .'],
        expected: '{"id":"a-…","n":2}',
      },
      { line: 10, commands: ['echo one', 'echo two'], expected: 'one\ntwo' },
    ]);
  });

  it('keeps a command open across quotes, $( and continuations, and sees # inside quotes as text', () => {
    expect(isOpen("node -e '\nconst a = 1;")).toBe(true);
    expect(isOpen("node -e '\nconst a = 1;\n'")).toBe(false);
    expect(isOpen('OP="x: $(cat ${DATA_DIR:-data}/operator-token)"')).toBe(false);
    expect(isOpen('X=$(curl -s "$API/a" |')).toBe(true);
    expect(isOpen('curl -s -d \'{"a": "# not a comment\'')).toBe(false);
    expect(isOpen("curl -s $API # it's a comment")).toBe(false);
    expect(isOpen('curl -s $API \\')).toBe(true);
  });

  it('refuses a block whose command never closes', () => {
    expect(() => commandGroups({ line: 1, text: "echo 'open" })).toThrow(/never closes/);
  });

  describe('matchesClaim', () => {
    it('matches equal output, … as any run of characters, and column padding', () => {
      expect(matchesClaim('{"id":"a-…","n":2}', '{"id":"a-123","n":2}\n')).toBe(true);
      expect(matchesClaim('… 401\n… 429', '     19 401\n      2 429\n')).toBe(true);
      expect(matchesClaim(null, '')).toBe(true);
    });

    it('fails a doc fragment whose claimed output differs from what the command printed', () => {
      const [block] = extractBlocks(
        'doc.md',
        ['```sh', 'curl -s $API/readyz | jq -r .status', '# ready', '```'].join('\n'),
      );
      const [group] = commandGroups(block);
      expect(matchesClaim(group.expected, 'degraded\n')).toBe(false);
      expect(matchesClaim(group.expected, 'ready\nextra line\n')).toBe(false);
      expect(matchesClaim('{"n":2}', '{"n":3}')).toBe(false);
      expect(matchesClaim('a…c', 'abd')).toBe(false);
      // regex characters in a claim are text
      expect(matchesClaim('[1]', '1')).toBe(false);
    });

    it('fails output where nothing is claimed', () => {
      expect(matchesClaim(null, 'something\n')).toBe(false);
    });
  });
});
