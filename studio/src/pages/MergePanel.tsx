import { useState } from 'react';
import { useStudio } from '../api/context';
import { ApiError } from '../api/http';
import type { MergeConflict, ResolutionStrategy } from '../api/types';
import { ErrorNote, useAction } from '../ui';

const STRATEGIES: Array<{ value: ResolutionStrategy; label: string }> = [
  { value: 'ours', label: 'main (ours)' },
  { value: 'theirs', label: 'this branch (theirs)' },
  { value: 'base', label: 'base' },
];

const pathKey = (path: string[]) => path.join(' / ');

function show(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/**
 * Merges the branch into main. A conflict (400 MERGE_CONFLICT, `data.conflicts`) opens a three-way
 * view: base, main and the branch side by side, and a choice per item, sent back as
 * `conflictResolutions`.
 */
export function MergePanel({
  agentId,
  branchId,
  onMerged,
}: {
  agentId: string;
  branchId: string;
  onMerged: () => void;
}) {
  const { api } = useStudio();
  const [message, setMessage] = useState('');
  const [conflicts, setConflicts] = useState<MergeConflict[] | null>(null);
  const [choices, setChoices] = useState<Record<string, ResolutionStrategy>>({});
  const action = useAction();

  const merge = async () => {
    const resolutions = conflicts?.map((c) => ({ path: c.path, strategy: choices[pathKey(c.path)] }));
    if (resolutions?.some((r) => !r.strategy)) return;
    try {
      await api.merge(agentId, branchId, {
        deploymentMessage: message || undefined,
        conflictResolutions: resolutions,
      });
      setConflicts(null);
      onMerged();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MERGE_CONFLICT') {
        const data = error.envelope?.data as { conflicts?: MergeConflict[] } | null;
        setConflicts(data?.conflicts ?? []);
        setChoices({});
      } else {
        action.setError(error);
      }
    }
  };
  const undecided = conflicts?.filter((c) => !choices[pathKey(c.path)]).length ?? 0;

  return (
    <section aria-labelledby="merge-title" className="merge">
      <h3 id="merge-title">Merge into main</h3>
      <label htmlFor="merge-message">Deployment message</label>
      <input id="merge-message" value={message} onChange={(e) => setMessage(e.target.value)} maxLength={2000} />
      {conflicts && (
        <div role="group" aria-labelledby="conflicts-title" className="conflicts">
          <h4 id="conflicts-title">
            {conflicts.length} conflict{conflicts.length === 1 ? '' : 's'}: main changed the same items since this
            branch was cut. Choose a version of each.
          </h4>
          {conflicts.map((c) => {
            const key = pathKey(c.path);
            return (
              <fieldset key={key} className="conflict" data-path={key}>
                <legend>{key}</legend>
                <div className="three-way">
                  {(['base', 'ours', 'theirs'] as const).map((side) => (
                    <div key={side} className={`side ${side}`}>
                      <h5>{STRATEGIES.find((s) => s.value === side)!.label}</h5>
                      <pre>{show(c[side])}</pre>
                    </div>
                  ))}
                </div>
                <div className="row">
                  {STRATEGIES.map((s) => (
                    <label key={s.value}>
                      <input
                        type="radio"
                        name={`resolve-${key}`}
                        value={s.value}
                        checked={choices[key] === s.value}
                        onChange={() => setChoices({ ...choices, [key]: s.value })}
                      />{' '}
                      Keep {s.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            );
          })}
        </div>
      )}
      <button type="button" onClick={() => action.run(merge)} disabled={action.busy || undecided > 0}>
        {conflicts ? 'Merge with these choices' : 'Merge'}
      </button>
      {undecided > 0 && <span className="hint"> {undecided} left to choose</span>}
      <ErrorNote error={action.error} />
    </section>
  );
}
