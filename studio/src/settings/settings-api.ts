import type { ParleyApi } from '../api/client';
import type { RuntimeSettings, RuntimeSettingsPatch, SettingsField } from '../../../src/agents/runtime-settings';

/** A branch's settings as the API answers them: every setting with its default filled in, and those the agent set. */
export interface BranchSettings {
  settings: RuntimeSettings;
  customized: SettingsField[];
}

/**
 * The runtime settings routes (docs/api/runtime-settings.md), typed by the document like every
 * call of client.ts; kept beside the settings page so the shared client stays as it is.
 */
export const branchSettings = (api: ParleyApi, agentId: string, branchId: string) =>
  api.http.call('get', '/v1/agents/{agentId}/branches/{branchId}/settings', {
    path: { agentId, branchId },
  }) as Promise<BranchSettings>;

export const putBranchSettings = (api: ParleyApi, agentId: string, branchId: string, patch: RuntimeSettingsPatch) =>
  api.http.request<BranchSettings>('PUT', '/v1/agents/{agentId}/branches/{branchId}/settings', {
    path: { agentId, branchId },
    body: patch,
  });
