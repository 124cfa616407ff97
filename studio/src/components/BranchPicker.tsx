import type { Ref } from 'react';
import type { ParleyApi } from '../api/client';
import type { components } from '../api/schema';

type Branch = components['schemas']['Branch'];

/** The picker's value for "a new branch, cut from main under the name typed". */
export const NEW_BRANCH = '';

/** The branches a change can go on: open ones, newest first (main is never written to, merged ones are read-only). */
export const openBranches = (branches: Branch[] | undefined): Branch[] =>
  (branches ?? [])
    .filter((b) => b.status === 'open' && b.branchId !== 'main')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** The chosen branch's id, cutting the new one from main first (as the Branches tab creates one). */
export async function chosenBranchId(api: ParleyApi, agentId: string, chosen: string, name: string) {
  return chosen === NEW_BRANCH ? (await api.createBranch(agentId, name.trim())).branchId : chosen;
}

/**
 * Which branch gets a change: an open branch, or a new one with its name to type. Every change
 * in Studio is made on a branch and merged; the dashboard's "Create topic from this" and the
 * learning loop's "Should have been…" ask with this.
 */
export function BranchPicker(props: {
  id: string;
  branches: Branch[];
  chosen: string;
  onChoose: (branchId: string) => void;
  newName: string;
  onNewName: (name: string) => void;
  selectRef?: Ref<HTMLSelectElement>;
}) {
  const { id, branches, chosen } = props;
  return (
    <>
      <div className="field">
        <label htmlFor={id}>Branch</label>
        <select id={id} ref={props.selectRef} value={chosen} onChange={(e) => props.onChoose(e.target.value)}>
          {branches.map((b) => (
            <option key={b.branchId} value={b.branchId}>
              {b.branchName}
            </option>
          ))}
          <option value={NEW_BRANCH}>a new branch</option>
        </select>
      </div>
      {chosen === NEW_BRANCH && (
        <label>
          New branch name
          <input
            value={props.newName}
            onChange={(e) => props.onNewName(e.target.value)}
            pattern="[A-Za-z0-9][A-Za-z0-9._\/\-]{0,99}"
            title="1-100 letters, digits, . _ / -"
            required
          />
        </label>
      )}
    </>
  );
}
