import { useStudio } from '../api/context';
import type { ParleyApi } from '../api/client';
import type { DeploymentContent } from '../api/types';
import { ContentDiffView } from '../components/ContentDiffView';
import { diffContent, type ContentDiff } from '../diff';
import { ErrorNote, useLoad } from '../ui';

const NOTHING: DeploymentContent = { behavior: '', topics: [] };

/**
 * Main as it was when the branch was cut (its `sequenceId`): every merge deploys main at its new
 * sequence to sandbox, so a deployment of that version serves it; before the first merge, nothing.
 */
async function mainAt(api: ParleyApi, agentId: string, sequence: number): Promise<DeploymentContent> {
  if (sequence === 0) return NOTHING;
  const { deployments } = await api.deployments(agentId);
  const at = deployments.find((d) => d.version === sequence);
  if (!at) throw new Error(`no deployment serves main at sequence ${sequence}, where this branch was cut`);
  return api.deploymentContent(agentId, at.id);
}

/** What a branch changes on main where it was cut: what its merge will apply (topics matched by name). */
export async function branchDiff(
  api: ParleyApi,
  agentId: string,
  branchId: string,
  baseSequence: string,
): Promise<ContentDiff> {
  const [base, behavior, topics] = await Promise.all([
    mainAt(api, agentId, Number(baseSequence)),
    api.behavior(agentId, branchId),
    api.topics(agentId, branchId),
  ]);
  return diffContent(base, { behavior: behavior.behavior, topics });
}

/**
 * What a branch changes: its behavior and topics against main where it was cut, as its merge
 * will apply them (topics matched by name). Where the learning loop links after adding words.
 */
export function BranchChanges(props: { agentId: string; branchId: string; baseSequence: string }) {
  const { agentId, branchId, baseSequence } = props;
  const { api } = useStudio();
  const changes = useLoad(
    () => branchDiff(api, agentId, branchId, baseSequence),
    [api, agentId, branchId, baseSequence],
  );
  return (
    <div aria-busy={changes.loading} data-testid="branch-changes">
      <ErrorNote error={changes.error} />
      {changes.data && (
        <ContentDiffView
          title={`What this branch changes on main (as cut at sequence ${baseSequence})`}
          diff={changes.data}
          empty="This branch changes no behavior or topic yet."
        />
      )}
    </div>
  );
}
