import { createHash } from 'node:crypto';
import type { MergeChanges, TestCase, TestCaseContent, Topic, TopicContent } from './agent.events';
import type { Tool } from './agent-tools.events';
import { mergeTools } from './tool-merge';
import type { RuntimeSettings } from './runtime-settings.types';
import { mergeSettings } from './settings-merge';

/** What a branch or main holds at one moment. Topics and test cases by name: a merge matches them by name. */
export interface Content {
  behavior: string;
  topics: ReadonlyMap<string, Topic>;
  tests: ReadonlyMap<string, TestCase>;
  /** agent tools (contract §20); absent reads as none */
  tools?: ReadonlyMap<string, Tool>;
  /** runtime settings (runtime-settings.ts): only the fields set */
  settings: RuntimeSettings;
}

type Path = ['behavior'] | ['topics', string] | ['tests', string] | ['tools', string] | ['settings', string];

interface Conflict {
  path: Path;
  ours: unknown;
  theirs: unknown;
  base: unknown;
}

export interface Resolution {
  path: string[];
  strategy: 'ours' | 'theirs' | 'base';
  value?: unknown;
}

export type MergeOutcome = { ok: true; changes: MergeChanges } | { ok: false; conflicts: Conflict[] };

function sameTopic(a: TopicContent | undefined, b: TopicContent | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.name === b.name &&
    a.content === b.content &&
    a.actions === b.actions &&
    a.isActive === b.isActive &&
    a.exampleQueries.length === b.exampleQueries.length &&
    a.exampleQueries.every((q, i) => q === b.exampleQueries[i])
  );
}

const topicView = (t: Topic | undefined) =>
  t
    ? {
        name: t.name,
        content: t.content,
        exampleQueries: { queries: t.exampleQueries },
        actions: t.actions,
        isActive: t.isActive,
      }
    : null;

/**
 * Three-way merge of a branch ("theirs") onto main's head ("ours") from the branch's base, item by
 * item: the behavior, and each topic by name (a missing topic on one side is a deletion). An item
 * only the branch changed is taken; one only main changed is kept; both changed the same way is
 * fine; both changed differently is a conflict unless a resolution settles it. One pass over the
 * names: linear in the number of topics.
 */
export function threeWayMerge(
  base: Content,
  ours: Content,
  theirs: Content,
  resolutions: Resolution[] = [],
): MergeOutcome {
  const settle = new Map(resolutions.map((r) => [r.path.join('\u0000'), r]));
  const conflicts: Conflict[] = [];
  const changes: MergeChanges = { upserted: [], removed: [] };

  const b = base.behavior;
  const o = ours.behavior;
  const t = theirs.behavior;
  if (t !== b && t !== o) {
    if (o === b) changes.behavior = t;
    else {
      const resolution = settle.get('behavior');
      if (!resolution) conflicts.push({ path: ['behavior'], ours: o, theirs: t, base: b });
      else {
        const chosen =
          resolution.value !== undefined
            ? String(resolution.value)
            : { ours: o, theirs: t, base: b }[resolution.strategy];
        if (chosen !== o) changes.behavior = chosen;
      }
    }
  }

  const names = new Set<string>([...theirs.topics.keys(), ...base.topics.keys()]);
  const chosenByName: Array<{ name: string; content: TopicContent; ids: Array<string | undefined> }> = [];
  for (const name of names) {
    const bt = base.topics.get(name);
    const tt = theirs.topics.get(name);
    if (sameTopic(tt, bt)) continue; // the branch did not touch it
    const ot = ours.topics.get(name);
    if (sameTopic(ot, tt)) continue; // both sides agree already
    let chosen: TopicContent | undefined;
    if (sameTopic(ot, bt)) chosen = tt;
    else {
      const resolution = settle.get(`topics\u0000${name}`);
      if (!resolution) {
        conflicts.push({ path: ['topics', name], ours: topicView(ot), theirs: topicView(tt), base: topicView(bt) });
        continue;
      }
      chosen =
        resolution.value !== undefined
          ? toTopicContent(name, resolution.value)
          : { ours: ot, theirs: tt, base: bt }[resolution.strategy];
      if (sameTopic(chosen, ot)) continue;
    }
    if (chosen) chosenByName.push({ name, content: chosen, ids: [tt?.id, ot?.id, bt?.id] });
    else if (ot) changes.removed.push(name);
  }
  const tests = mergeTests(base, ours, theirs, settle, conflicts);
  const none = new Map<string, Tool>();
  const tools = mergeTools(
    { base: base.tools ?? none, ours: ours.tools ?? none, theirs: theirs.tools ?? none },
    (name) => settle.get(`tools\u0000${name}`),
    conflicts,
  );
  const settings = mergeSettings(base.settings, ours.settings, theirs.settings, settle, conflicts);
  if (conflicts.length > 0) return { ok: false, conflicts };
  if (settings) changes.settings = settings;
  changes.upserted = assignIds(ours.topics, chosenByName, changes.removed);
  if (tests.chosen.length > 0 || tests.removed.length > 0)
    changes.tests = { upserted: assignIds(ours.tests, tests.chosen, tests.removed), removed: tests.removed };
  if (tools.chosen.length > 0 || tools.removed.length > 0)
    changes.tools = {
      upserted: assignIds(ours.tools ?? none, tools.chosen, tools.removed),
      removed: tools.removed,
    };
  return { ok: true, changes };
}

const testKey = (t: TestCaseContent | undefined) =>
  t ? JSON.stringify({ name: t.name, turns: t.turns, state: t.state }) : null;
const testView = (t: TestCase | undefined) => (t ? { name: t.name, turns: t.turns, state: t.state } : null);

/** Test cases merge exactly like topics (contract §19): by name, a missing one on a side is a deletion. */
function mergeTests(
  base: Content,
  ours: Content,
  theirs: Content,
  settle: Map<string, Resolution>,
  conflicts: Conflict[],
): { chosen: Array<{ name: string; content: TestCaseContent; ids: Array<string | undefined> }>; removed: string[] } {
  const chosenByName: Array<{ name: string; content: TestCaseContent; ids: Array<string | undefined> }> = [];
  const removed: string[] = [];
  for (const name of new Set<string>([...theirs.tests.keys(), ...base.tests.keys()])) {
    const bt = base.tests.get(name);
    const tt = theirs.tests.get(name);
    const ot = ours.tests.get(name);
    if (testKey(tt) === testKey(bt) || testKey(ot) === testKey(tt)) continue;
    let chosen: TestCaseContent | undefined;
    if (testKey(ot) === testKey(bt)) chosen = tt;
    else {
      const resolution = settle.get(`tests\u0000${name}`);
      if (!resolution) {
        conflicts.push({ path: ['tests', name], ours: testView(ot), theirs: testView(tt), base: testView(bt) });
        continue;
      }
      chosen =
        resolution.value !== undefined
          ? toTestContent(name, resolution.value)
          : { ours: ot, theirs: tt, base: bt }[resolution.strategy];
      if (testKey(chosen) === testKey(ot)) continue;
    }
    if (chosen) chosenByName.push({ name, content: chosen, ids: [tt?.id, ot?.id, bt?.id] });
    else if (ot) removed.push(name);
  }
  return { chosen: chosenByName, removed };
}

/** A resolution's explicit value for a test case (null: delete it). */
function toTestContent(name: string, value: unknown): TestCaseContent | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Partial<TestCaseContent>;
  return {
    name,
    turns: Array.isArray(v.turns) ? v.turns : [],
    state: v.state && typeof v.state === 'object' ? v.state : {},
  };
}

/**
 * Topic ids stay unique on main: every topic main keeps untouched keeps its id; a changed or new
 * topic takes the branch's id for it, else main's, else the base's, whichever no other topic holds
 * (a rename plus a new topic under the old name would otherwise share one); failing all, an id
 * derived from the candidate and the name, the same on every replay.
 */
function assignIds<C extends { name: string }>(
  ours: ReadonlyMap<string, { id: string }>,
  chosen: Array<{ name: string; content: C; ids: Array<string | undefined> }>,
  removed: string[],
): Array<C & { id: string }> {
  const replaced = new Set([...removed, ...chosen.map((c) => c.name)]);
  const claimed = new Set<string>();
  for (const [name, item] of ours) if (!replaced.has(name)) claimed.add(item.id);
  return chosen.map(({ name, content, ids }) => {
    const candidates = ids.filter((id): id is string => !!id);
    const id =
      candidates.find((c) => !claimed.has(c)) ??
      `topic_${createHash('sha256')
        .update(`${candidates[0] ?? ''}\u0000${name}`)
        .digest('hex')
        .slice(0, 16)}`;
    claimed.add(id);
    return { ...content, name, id };
  });
}

/** A resolution's explicit value for a topic: the topic's fields (null: delete it). */
function toTopicContent(name: string, value: unknown): TopicContent | undefined {
  if (value === null) return undefined;
  const v = value as Omit<Partial<TopicContent>, 'exampleQueries'> & {
    exampleQueries?: { queries?: string[] } | string[];
  };
  const queries = Array.isArray(v.exampleQueries) ? v.exampleQueries : (v.exampleQueries?.queries ?? []);
  return {
    name,
    content: String(v.content ?? ''),
    exampleQueries: queries.map(String),
    actions: String(v.actions ?? ''),
    isActive: v.isActive ?? true,
  };
}

/** Main after a merge: the same maps, with the changes applied (one copy, linear). */
export function applyChanges(main: Content, changes: MergeChanges): Content {
  const tests = changes.tests ? applyNamed(main.tests, changes.tests.upserted, changes.tests.removed) : main.tests;
  const tools = changes.tools
    ? applyNamed(main.tools ?? new Map<string, Tool>(), changes.tools.upserted, changes.tools.removed)
    : main.tools;
  const settings = changes.settings ?? main.settings;
  if (changes.upserted.length === 0 && changes.removed.length === 0)
    return { ...main, behavior: changes.behavior ?? main.behavior, tests, settings, ...(tools ? { tools } : {}) };
  return {
    behavior: changes.behavior ?? main.behavior,
    topics: applyNamed(main.topics, changes.upserted, changes.removed),
    tests,
    ...(tools ? { tools } : {}),
    settings,
  };
}

function applyNamed<T extends { name: string }>(
  items: ReadonlyMap<string, T>,
  upserted: T[],
  removed: string[],
): ReadonlyMap<string, T> {
  const next = new Map(items);
  for (const name of removed) next.delete(name);
  for (const item of upserted) next.set(item.name, item);
  return next;
}
