/** Where the branch editor opens with a new topic prefilled (Branches reads these). */
export function topicEditorPath(agentId: string, branchId: string, name: string, query: string): string {
  return `/agents/${agentId}/branches/${branchId}?${new URLSearchParams({ topic_name: name, topic_query: query })}`;
}

/** Where the branch editor opens on its Changes tab: what the branch changes on main. */
export const branchChangesPath = (agentId: string, branchId: string) =>
  `/agents/${agentId}/branches/${branchId}?view=changes`;
