import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIN_OOD_PRECISION, MIN_TOP1, runRetrievalEvalCli } from '../../src/cli/retrieval-eval-cli';
import { metricsOf, type Outcome } from '../../src/cli/retrieval-eval/eval-metrics';
import { blindSetDir, defaultSetDir, loadEvalSet } from '../../src/cli/retrieval-eval/eval-set';

/** Runs the eval CLI as `npm run eval -- ...` would, collecting what it prints. */
async function evalCli(...argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runRetrievalEvalCli(argv, { write: (chunk: string) => (text += chunk) });
  return { code, text };
}

function tempSet(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-eval-'));
  for (const [name, doc] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), JSON.stringify(doc));
  return dir;
}

const TOPICS = [
  {
    id: 'refunds',
    name: 'Refunds',
    content: 'Refunds go back to the original card within 5 days.',
    exampleQueries: ['can I get my money back'],
  },
  {
    id: 'hours',
    name: 'Opening hours',
    content: 'We are open from 9am to 6pm, Monday to Saturday.',
    exampleQueries: ['when are you open'],
  },
];

describe('npm run eval (retrieval quality, issue 35)', () => {
  it('ships a set of at least 5 agents and 300 questions, in-domain and out-of-domain, split dev/held-out', () => {
    const agents = loadEvalSet(defaultSetDir());
    expect(agents.length).toBeGreaterThanOrEqual(5);
    const questions = agents.flatMap((a) => a.questions);
    expect(questions.length).toBeGreaterThanOrEqual(300);
    expect(questions.filter((q) => q.topic === 'none').length).toBeGreaterThanOrEqual(60);
    expect(questions.filter((q) => q.split === 'heldout').length).toBeGreaterThanOrEqual(100);
    for (const agent of agents) {
      expect(agent.topics.length).toBeGreaterThanOrEqual(5);
      // a test question is not one of the agent's own example queries
      const examples = new Set(agent.topics.flatMap((t) => t.exampleQueries.map((q) => q.toLowerCase())));
      for (const q of agent.questions) expect(examples.has(q.q.toLowerCase())).toBe(false);
    }
  });

  it("holds the embedded runtime to the issue's bar on the whole set (--assert)", async () => {
    // The bars are 88% in-domain top-1 (issue 54's floor for this set) and 90% out-of-domain
    // precision (MIN_TOP1, MIN_OOD_PRECISION, the CLI's default); docs/retrieval-eval.md has the
    // figures reached.
    expect([MIN_TOP1, MIN_OOD_PRECISION]).toEqual([0.88, 0.9]);
    const { code, text } = await evalCli('--set', 'tuned', '--assert');
    expect(text).toMatch(/^ALL +343 q/m);
    expect(text).toContain('PASS');
    expect(code).toBe(0);
  });

  it('fails --assert when the runtime answers below the bars', async () => {
    // Questions labelled with the wrong topic: the runtime answers them "right", so top-1 is 0.
    const dir = tempSet({
      'shop.json': {
        agent: 'shop',
        name: 'Shop',
        topics: TOPICS,
        questions: [
          { q: 'where is my refund', topic: 'hours' },
          { q: 'what time do you open on saturday', topic: 'refunds' },
          { q: 'who won the football', topic: 'none' },
        ],
      },
    });
    try {
      const { code, text } = await evalCli('--assert', '--set', dir);
      expect(text).toMatch(/FAIL: [^:]+: in-domain top-1 0\.0% < 88\.0%/);
      expect(code).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed set or unknown flags with exit code 2, naming the file', async () => {
    const dir = tempSet({
      'bad.json': { agent: 'bad', name: 'Bad', topics: TOPICS, questions: [{ q: 'x', topic: 'nope' }] },
    });
    try {
      const bad = await evalCli('--set', dir);
      expect(bad.code).toBe(2);
      expect(bad.text).toContain('bad.json: question 0 names an unknown topic nope');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect((await evalCli('--min-top1', '2')).code).toBe(2);
    expect((await evalCli('--split', 'everything')).code).toBe(2);
  });

  it('defines out-of-domain precision over the questions answered "none"', () => {
    const o = (label: string, cited: string): Outcome => ({
      agent: 'a',
      q: '',
      split: 'dev',
      label,
      cited,
      top: cited,
      confidence: 1,
    });
    const m = metricsOf([o('none', 'none'), o('t1', 'none'), o('none', 't1'), o('t1', 't1'), o('t2', 't1')]);
    expect(m.oodPrecision).toBe(1 / 2); // answered none twice, once rightly
    expect(m.oodRecall).toBe(1 / 2); // two labelled none, one refused
    expect(m.top1).toBe(1 / 3);
    // refusing nothing is no precision when there was something to refuse
    expect(metricsOf([o('none', 't1'), o('t1', 't1')]).oodPrecision).toBe(0);
  });
});

describe('the blind set (issue 54)', () => {
  it('ships 6 agents, 300 in-domain and 60 out-of-domain questions, each topic described in one line', () => {
    const agents = loadEvalSet(blindSetDir());
    expect(agents.length).toBeGreaterThanOrEqual(6);
    const questions = agents.flatMap((a) => a.questions);
    expect(questions.filter((q) => q.topic !== 'none').length).toBeGreaterThanOrEqual(300);
    expect(questions.filter((q) => q.topic === 'none').length).toBeGreaterThanOrEqual(60);
    const raw = fs
      .readdirSync(blindSetDir())
      .filter((f) => f.endsWith('.json'))
      .map(
        (f) =>
          JSON.parse(fs.readFileSync(path.join(blindSetDir(), f), 'utf8')) as {
            topics: Array<{ description?: unknown }>;
          },
      );
    for (const doc of raw) for (const t of doc.topics) expect(typeof t.description).toBe('string');
  });

  it('is frozen: every file matches the digest recorded when it was written', () => {
    const sums = fs.readFileSync(path.join(blindSetDir(), 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(sums.length).toBe(fs.readdirSync(blindSetDir()).filter((f) => f.endsWith('.json')).length);
    for (const row of sums) {
      const [digest, file] = row.split(/\s+/);
      const actual = createHash('sha256')
        .update(fs.readFileSync(path.join(blindSetDir(), file)))
        .digest('hex');
      expect(`${file} ${actual}`).toBe(`${file} ${digest}`);
    }
  });

  it('prints both sets, each apart, by default', async () => {
    const { code, text } = await evalCli('--split', 'dev');
    expect(code).toBe(0);
    expect(text).toMatch(/== tuned set \(eval\/agents\) ==/);
    expect(text).toMatch(/== blind set \(eval\/blind\) ==/);
    expect(text.match(/^ALL /gm)).toHaveLength(2);
  });
});
