import { useState } from 'react';
import { useStudio } from '../api/context';
import { ENVIRONMENTS, type Deployment, type Environment } from '../api/types';
import { diffContent, type ContentDiff } from '../diff';
import { ContentDiffView } from '../components/ContentDiffView';
import { ErrorNote, shortTime, useAction, useLoad } from '../ui';
import { TestRunStatus } from './TestRunStatus';

const NEXT: Partial<Record<Environment, Environment>> = { sandbox: 'pre-release', 'pre-release': 'live' };

/** A timeline per environment (newest first) with promote, roll back, and a diff of any two deployments. */
export function Deployments({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const data = useLoad(async () => {
    const [all, active] = await Promise.all([api.deployments(agentId), api.activeDeployments(agentId)]);
    return { all: all.deployments, active: active.activeDeployments };
  }, [api, agentId]);
  const keyNames = useKeyNames(session.accountId!, session.permissions.includes('keys'));
  const action = useAction();
  const [picked, setPicked] = useState<string[]>([]);
  const [diff, setDiff] = useState<{ from: Deployment; to: Deployment; diff: ContentDiff } | null>(null);

  const promote = async (d: Deployment, target: Environment) => {
    const all = data.data?.all ?? [];
    const active = data.data?.active[target];
    // the same version already in the target: promoting it again would add a second "vN" row
    const there = all.find((x) => x.environment === target && x.version === d.version);
    if (active?.version === d.version) {
      action.setError(new Error(`v${d.version} is already active in ${target}.`));
      return;
    }
    const skip = d.environment === 'sandbox' && target === 'live' ? ', skipping pre-release' : '';
    const replaces = active ? ` It replaces v${active.version} for everyone using ${target}.` : '';
    if (target === 'live' && !window.confirm(`Promote v${d.version} to live${skip}?${replaces}`)) return;
    // an earlier copy of it in the target is made active again rather than copied once more
    const done = there
      ? await action.run(() => api.rollback(agentId, there.id))
      : await action.run(() => api.promote(agentId, d.id, target));
    if (done) data.reload();
  };
  const rollback = async (d: Deployment) => {
    const active = data.data?.active[d.environment];
    const from = active ? ` from v${active.version}` : '';
    if (!window.confirm(`Roll ${d.environment} back to v${d.version}${from}? It answers at once.`)) return;
    if (await action.run(() => api.rollback(agentId, d.id))) data.reload();
  };
  const activeIn = (env: Environment, version: number) => data.data?.active[env]?.version === version;
  const pick = (id: string, on: boolean) => {
    setDiff(null);
    setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id)));
  };
  const compare = async () => {
    const [a, b] = picked.map((id) => data.data!.all.find((d) => d.id === id)!);
    const [from, to] = a.createdAt <= b.createdAt ? [a, b] : [b, a];
    const contents = await action.run(() =>
      Promise.all([api.deploymentContent(agentId, from.id), api.deploymentContent(agentId, to.id)]),
    );
    if (contents) setDiff({ from, to, diff: diffContent(contents[0], contents[1]) });
  };

  return (
    <div>
      <ErrorNote error={action.error ?? data.error} />
      <div className="timelines">
        {ENVIRONMENTS.map((env) => {
          const list = data.data?.all.filter((d) => d.environment === env) ?? [];
          const activeId = data.data?.active[env]?.id;
          return (
            <section key={env} className="timeline" aria-labelledby={`env-${env}`} data-environment={env}>
              <h2 id={`env-${env}`}>{env}</h2>
              {list.length === 0 && (
                <p className="hint">
                  {env === 'sandbox'
                    ? 'Nothing deployed: merge a branch (Branches tab) to deploy it here.'
                    : `Nothing deployed: promote a deployment to ${env}.`}
                </p>
              )}
              <ol>
                {list.map((d) => (
                  <li
                    key={d.id}
                    className={d.id === activeId ? 'deployment active' : 'deployment'}
                    data-version={d.version}
                  >
                    <div>
                      <strong>v{d.version}</strong> {d.id === activeId && <span className="badge open">active</span>}
                    </div>
                    <div>{d.message || <span className="hint">(no message)</span>}</div>
                    <div className="hint">
                      {shortTime(d.createdAt)} by {keyNames[d.createdBy ?? ''] ?? keyLabel(d.createdBy ?? '')}
                    </div>
                    <TestRunStatus agentId={agentId} deploymentId={d.id} />
                    <div className="row">
                      {NEXT[env] && !activeIn(NEXT[env]!, d.version) && (
                        <button type="button" onClick={() => promote(d, NEXT[env]!)} disabled={action.busy}>
                          Promote v{d.version} to {NEXT[env]}
                        </button>
                      )}
                      {env === 'sandbox' && !activeIn('live', d.version) && (
                        <button type="button" onClick={() => promote(d, 'live')} disabled={action.busy}>
                          Skip to live: promote v{d.version} to live
                        </button>
                      )}
                      {d.id !== activeId && (
                        <button type="button" onClick={() => rollback(d)} disabled={action.busy}>
                          Roll {env} back to v{d.version}
                        </button>
                      )}
                      <label>
                        <input
                          type="checkbox"
                          checked={picked.includes(d.id)}
                          onChange={(e) => pick(d.id, e.target.checked)}
                        />{' '}
                        Compare {env} v{d.version}
                      </label>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          );
        })}
      </div>
      <button type="button" onClick={compare} disabled={picked.length !== 2 || action.busy}>
        Compare the two chosen deployments
      </button>
      {diff && (
        <ContentDiffView
          title={`${diff.from.environment} v${diff.from.version} → ${diff.to.environment} v${diff.to.version}`}
          diff={diff.diff}
          empty="No difference in behavior or topics."
        />
      )}
    </div>
  );
}

/** A key id shown short when its name is not known to this key ("key_t4il…"). */
const keyLabel = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** Key id → name: the account's keys for a key with `keys`, else this key's own name. */
function useKeyNames(accountId: string, mayList: boolean): Record<string, string> {
  const { api } = useStudio();
  const names = useLoad(async () => {
    const self = await api.self();
    const all = mayList ? (await api.keys(accountId)).apiKeys : [];
    return Object.fromEntries([...all, self].map((k) => [k.id, k.name]));
  }, [api, accountId, mayList]);
  return names.data ?? {};
}
