import type { DeploymentContent, Topic } from './api/types';

type TopicChange =
  | { kind: 'added'; name: string; after: Topic }
  | { kind: 'removed'; name: string; before: Topic }
  | { kind: 'changed'; name: string; before: Topic; after: Topic; fields: string[] };

export interface ContentDiff {
  behavior: { before: string; after: string } | null;
  topics: TopicChange[];
}

const FIELDS = ['content', 'actions', 'exampleQueries', 'isActive'] as const;

/** What changed between two deployments' content, topics matched by name (as merges match them). */
export function diffContent(before: DeploymentContent, after: DeploymentContent): ContentDiff {
  const old = new Map(before.topics.map((t) => [t.name, t]));
  const now = new Map(after.topics.map((t) => [t.name, t]));
  const topics: TopicChange[] = [];
  for (const [name, t] of now) {
    const was = old.get(name);
    if (!was) topics.push({ kind: 'added', name, after: t });
    else {
      const fields = FIELDS.filter((f) => JSON.stringify(was[f]) !== JSON.stringify(t[f]));
      if (fields.length) topics.push({ kind: 'changed', name, before: was, after: t, fields });
    }
  }
  for (const [name, t] of old) if (!now.has(name)) topics.push({ kind: 'removed', name, before: t });
  topics.sort((a, b) => a.name.localeCompare(b.name));
  return {
    behavior: before.behavior === after.behavior ? null : { before: before.behavior, after: after.behavior },
    topics,
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "this branch changes 2 topics (1 added, 1 changed)": a branch's diff on main in a few words (Try it's hint). */
export function describeDiff(diff: ContentDiff): string {
  const kinds = (['added', 'changed', 'removed'] as const)
    .map((kind) => [kind, diff.topics.filter((t) => t.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  const topics = diff.topics.length ? `${plural(diff.topics.length, 'topic')} (${kinds.join(', ')})` : '';
  const parts = [topics, diff.behavior ? 'the behavior' : ''].filter(Boolean);
  return parts.length ? `this branch changes ${parts.join(' and ')}` : 'this branch changes no topic yet';
}
