import { checkSetting, SETTINGS_FIELDS, settingKey, type RuntimeSettings } from './runtime-settings';

/**
 * Runtime settings merge like the behavior, one field at a time (path `['settings', field]`): a
 * branch that raised the threshold and main that changed the fallback text do not conflict; both
 * changing the same field differently do, unless a resolution settles it. An explicit resolution
 * value is checked like a PUT (`null`: the default). Returns main's new settings, or undefined
 * when they do not change.
 */
export function mergeSettings(
  base: RuntimeSettings,
  ours: RuntimeSettings,
  theirs: RuntimeSettings,
  settle: ReadonlyMap<string, { strategy: 'ours' | 'theirs' | 'base'; value?: unknown }>,
  /** merge.ts's conflicts (its types are not imported: merge.ts imports this file) */
  conflicts: { push(conflict: { path: ['settings', string]; ours: unknown; theirs: unknown; base: unknown }): unknown },
): RuntimeSettings | undefined {
  const next: Record<string, unknown> = {};
  let changed = false;
  for (const field of SETTINGS_FIELDS) {
    const [b, o, t] = [base[field], ours[field], theirs[field]];
    let chosen: unknown = o;
    if (settingKey(t) !== settingKey(b) && settingKey(t) !== settingKey(o)) {
      if (settingKey(o) === settingKey(b)) chosen = t;
      else {
        const resolution = settle.get(`settings\u0000${field}`);
        if (!resolution) {
          conflicts.push({ path: ['settings', field], ours: o ?? null, theirs: t ?? null, base: b ?? null });
          continue;
        }
        chosen =
          resolution.value !== undefined
            ? checkSetting(field, resolution.value)
            : { ours: o, theirs: t, base: b }[resolution.strategy];
      }
    }
    if (settingKey(chosen) !== settingKey(o)) changed = true;
    if (chosen !== undefined) next[field] = chosen;
  }
  return changed ? (next as RuntimeSettings) : undefined;
}
