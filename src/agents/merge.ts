import { createHash } from 'node:crypto';
import type { MergeChanges, Topic, TopicContent } from './agent.events';

/** What a branch or main holds at one moment. Topics by name: a merge matches topics by name. */
export interface Content {
  behavior: string;
  topics: ReadonlyMap<string, Topic>;
}

export type Path = ['behavior'] | ['topics', string];

export interface Conflict {
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
  if (conflicts.length > 0) return { ok: false, conflicts };
  changes.upserted = assignIds(ours, chosenByName, changes.removed);
  return { ok: true, changes };
}

/**
 * Topic ids stay unique on main: every topic main keeps untouched keeps its id; a changed or new
 * topic takes the branch's id for it, else main's, else the base's, whichever no other topic holds
 * (a rename plus a new topic under the old name would otherwise share one); failing all, an id
 * derived from the candidate and the name, the same on every replay.
 */
function assignIds(
  ours: Content,
  chosen: Array<{ name: string; content: TopicContent; ids: Array<string | undefined> }>,
  removed: string[],
): Topic[] {
  const replaced = new Set([...removed, ...chosen.map((c) => c.name)]);
  const claimed = new Set<string>();
  for (const [name, topic] of ours.topics) if (!replaced.has(name)) claimed.add(topic.id);
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

/** Main after a merge: the same map, with the changes applied (one copy, linear). */
export function applyChanges(main: Content, changes: MergeChanges): Content {
  if (changes.upserted.length === 0 && changes.removed.length === 0)
    return changes.behavior === undefined ? main : { ...main, behavior: changes.behavior };
  const topics = new Map(main.topics);
  for (const name of changes.removed) topics.delete(name);
  for (const topic of changes.upserted) topics.set(topic.name, topic);
  return { behavior: changes.behavior ?? main.behavior, topics };
}
