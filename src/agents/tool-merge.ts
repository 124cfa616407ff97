import type { Tool, ToolContent } from './agent-tools.events';

export interface ToolMergeInput {
  base: ReadonlyMap<string, Tool>;
  ours: ReadonlyMap<string, Tool>;
  theirs: ReadonlyMap<string, Tool>;
}

interface Settle {
  strategy: 'ours' | 'theirs' | 'base';
  value?: unknown;
}

export interface ToolConflict {
  path: ['tools', string];
  ours: unknown;
  theirs: unknown;
  base: unknown;
}

/** Header values are compared by their keyed digest: two sealings of the same headers differ, their digests do not. */
const toolKey = (t: ToolContent | undefined) =>
  t
    ? JSON.stringify({
        name: t.name,
        description: t.description,
        url: t.url,
        method: t.method,
        parameters: t.parameters,
        headers: t.headers.digest,
        timeoutMs: t.timeoutMs,
      })
    : null;

/** What a conflict shows of a tool: never its headers (write-only), only whether it has any. */
const toolView = (t: Tool | undefined) =>
  t
    ? {
        name: t.name,
        description: t.description,
        url: t.url,
        method: t.method,
        parameters: t.parameters,
        timeout_ms: t.timeoutMs,
      }
    : null;

/**
 * Tools merge exactly like topics (contract §20): by name, a missing one on a side is a deletion,
 * both sides changing one differently is a conflict unless a resolution settles it. An explicit
 * resolution `value` sets the visible fields; its headers are the branch's (else main's), since a
 * resolution cannot carry header values sealed.
 */
export function mergeTools(
  { base, ours, theirs }: ToolMergeInput,
  settle: (name: string) => Settle | undefined,
  conflicts: { push(conflict: ToolConflict): unknown },
): { chosen: Array<{ name: string; content: ToolContent; ids: Array<string | undefined> }>; removed: string[] } {
  const chosenByName: Array<{ name: string; content: ToolContent; ids: Array<string | undefined> }> = [];
  const removed: string[] = [];
  for (const name of new Set<string>([...theirs.keys(), ...base.keys()])) {
    const bt = base.get(name);
    const tt = theirs.get(name);
    const ot = ours.get(name);
    if (toolKey(tt) === toolKey(bt) || toolKey(ot) === toolKey(tt)) continue;
    let chosen: ToolContent | undefined;
    if (toolKey(ot) === toolKey(bt)) chosen = tt;
    else {
      const resolution = settle(name);
      if (!resolution) {
        conflicts.push({ path: ['tools', name], ours: toolView(ot), theirs: toolView(tt), base: toolView(bt) });
        continue;
      }
      chosen =
        resolution.value !== undefined
          ? toToolContent(name, resolution.value, tt ?? ot ?? bt)
          : { ours: ot, theirs: tt, base: bt }[resolution.strategy];
      if (toolKey(chosen) === toolKey(ot)) continue;
    }
    if (chosen) chosenByName.push({ name, content: chosen, ids: [tt?.id, ot?.id, bt?.id] });
    else if (ot) removed.push(name);
  }
  return { chosen: chosenByName, removed };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A resolution's explicit value for a tool (null: delete it); fields it leaves out keep the branch's. */
function toToolContent(name: string, value: unknown, like: Tool | undefined): ToolContent | undefined {
  if (!isRecord(value)) return undefined;
  const timeout = Number(value.timeout_ms ?? value.timeoutMs);
  return {
    name,
    description: typeof value.description === 'string' ? value.description : (like?.description ?? ''),
    url: typeof value.url === 'string' ? value.url : (like?.url ?? ''),
    method: 'POST',
    parameters: isRecord(value.parameters) ? value.parameters : (like?.parameters ?? { type: 'object' }),
    headers: like?.headers ?? { sealed: '', digest: '' },
    timeoutMs:
      Number.isSafeInteger(timeout) && timeout >= 500 && timeout <= 10000 ? timeout : (like?.timeoutMs ?? 3000),
  };
}
