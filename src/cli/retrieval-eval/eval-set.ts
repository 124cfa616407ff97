import fs from 'node:fs';
import path from 'node:path';
import type { IndexableTopic } from '../../runtime/retrieval/topic-index';

/** The label of a question no topic should answer. */
export const NONE = 'none';

export type Split = 'dev' | 'heldout';

interface EvalQuestion {
  q: string;
  /** A topic id of the agent, or NONE. */
  topic: string;
  split: Split;
}

export interface EvalAgent {
  agent: string;
  name: string;
  topics: IndexableTopic[];
  questions: EvalQuestion[];
}

/**
 * Every third question of a file (positions 2, 5, 8...) is held out: the split is fixed by the file,
 * so nobody tuning on the dev part chooses which questions they never see.
 */
function splitOf(position: number): Split {
  return position % 3 === 2 ? 'heldout' : 'dev';
}

/** The repository's set: eval/agents, found from here whether this runs from src/ or dist/src/. */
export function defaultSetDir(from = __dirname): string {
  return evalDir('agents', from);
}

/**
 * The blind set (issue 54): six agents whose questions were written by someone who saw only each
 * topic's name and one line describing it, frozen before any retrieval change was made for it.
 */
export function blindSetDir(from = __dirname): string {
  return evalDir('blind', from);
}

function evalDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'eval', name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no eval/${name} directory above ${from}`);
  }
}

/** Reads every `*.json` agent of `dir` (sorted by file name), refusing a malformed file by name. */
export function loadEvalSet(dir: string): EvalAgent[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new Error(`no agent files in ${dir}`);
  return files.map((file) => parseAgent(file, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))));
}

function parseAgent(file: string, raw: unknown): EvalAgent {
  const fail = (why: string): never => {
    throw new Error(`${file}: ${why}`);
  };
  const doc = (raw ?? {}) as Record<string, unknown>;
  if (typeof doc.agent !== 'string' || typeof doc.name !== 'string') fail('needs "agent" and "name" strings');
  if (!Array.isArray(doc.topics) || !Array.isArray(doc.questions)) fail('needs "topics" and "questions" arrays');
  const topics = (doc.topics as Record<string, unknown>[]).map((t, i): IndexableTopic => {
    const queries = t.exampleQueries;
    if (
      typeof t.id !== 'string' ||
      typeof t.name !== 'string' ||
      typeof t.content !== 'string' ||
      !Array.isArray(queries) ||
      !queries.every((q) => typeof q === 'string')
    )
      fail(`topic ${i} needs id, name, content and exampleQueries`);
    return {
      id: t.id as string,
      name: t.name as string,
      content: t.content as string,
      exampleQueries: queries as string[],
      isActive: true,
    };
  });
  const ids = new Set(topics.map((t) => t.id));
  if (ids.size !== topics.length) fail('topic ids repeat');
  if (ids.has(NONE)) fail(`"${NONE}" is not a topic id`);
  const questions = (doc.questions as Record<string, unknown>[]).map((q, i): EvalQuestion => {
    if (typeof q.q !== 'string' || typeof q.topic !== 'string') fail(`question ${i} needs "q" and "topic"`);
    if (q.topic !== NONE && !ids.has(q.topic as string)) fail(`question ${i} names an unknown topic ${q.topic}`);
    return { q: q.q as string, topic: q.topic as string, split: splitOf(i) };
  });
  return { agent: doc.agent as string, name: doc.name as string, topics, questions };
}
