import { DomainError } from '../platform/errors/domain-error';
import { agentDecider, type AgentCommand, type AgentState } from './agent.decider';
import type { AgentEvent } from './agent.events';
import { applySettingsPatch, checkSetting, type RuntimeSettingsPatch } from './runtime-settings';

/* Runtime settings on branches: given events / when command / then events, and their merge. */

const NOW = '2030-01-01T00:00:00.000Z';
type Cmd = AgentCommand extends infer C ? (C extends { now: string } ? Omit<C, 'now'> : never) : never;

function run(commands: Cmd[], from = agentDecider.initialState()): { state: AgentState; events: AgentEvent[] } {
  let state = from;
  const events: AgentEvent[] = [];
  for (const command of commands) {
    const emitted = agentDecider.decide({ ...command, now: NOW } as AgentCommand, state);
    state = emitted.reduce(agentDecider.evolve, state);
    events.push(...emitted);
  }
  return { state, events };
}

function refusal(commands: Cmd[], last: Cmd): DomainError {
  const { state } = run(commands);
  try {
    agentDecider.decide({ ...last, now: NOW } as AgentCommand, state);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

const create: Cmd = {
  type: 'CreateAgent',
  agentId: 'ag1',
  accountId: 'acc1',
  name: 'Bot',
  greeting: 'Hi',
  languageCode: 'en-GB',
};
const branch = (id: string): Cmd => ({ type: 'CreateBranch', branchId: id, branchName: id });
const settings = (branchId: string, changes: RuntimeSettingsPatch): Cmd => ({
  type: 'EditRuntimeSettings',
  branchId,
  changes,
});
const merge = (
  branchId: string,
  resolutions: Array<{ path: string[]; strategy: 'ours' | 'theirs' | 'base'; value?: unknown }> = [],
): Cmd => ({
  type: 'MergeBranch',
  branchId,
  message: '',
  resolutions,
  deploymentId: `dep-${branchId}`,
  actor: 'key_1',
});
const mainSettings = (state: AgentState) => state.snapshots.get(state.mainSequence)!.settings;

describe('runtime settings on the agent stream', () => {
  it('records the whole settings of the branch after a change, and a repeat records nothing', () => {
    const { events } = run([create, branch('b'), settings('b', { confidence_threshold: 0.6, small_talk: false })]);
    expect(events.at(-1)).toEqual({
      type: 'RuntimeSettingsEdited',
      data: {
        agentId: 'ag1',
        branchId: 'b',
        settings: { confidence_threshold: 0.6, small_talk: false },
        editedAt: NOW,
      },
    });
    const again = run([
      create,
      branch('b'),
      settings('b', { confidence_threshold: 0.6 }),
      settings('b', { confidence_threshold: 0.6 }),
    ]);
    expect(again.events.filter((e) => e.type === 'RuntimeSettingsEdited')).toHaveLength(1);
  });

  it('null puts a field back to its default; absent fields stay', () => {
    const { state } = run([
      create,
      branch('b'),
      settings('b', { confidence_threshold: 0.6, fallback_text: 'Ask the front desk.' }),
      settings('b', { confidence_threshold: null }),
    ]);
    expect(state.branches.get('b')!.content.settings).toEqual({ fallback_text: 'Ask the front desk.' });
  });

  it('refuses main (422), an unknown branch (404) and a bad value (400 naming the field)', () => {
    expect(refusal([create], settings('main', { small_talk: false })).status).toBe(422);
    expect(refusal([create], settings('nope', { small_talk: false })).status).toBe(404);
    const bad = refusal([create, branch('b')], settings('b', { confidence_threshold: 1.5 }));
    expect({ status: bad.status, code: bad.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(bad.message).toContain('confidence_threshold');
  });

  it('carries the settings to main on merge, and a new branch starts from them', () => {
    const model = { provider: 'openai_compatible' as const, model: 'm1', endpoint: 'acme', temperature: 0.2 };
    const { state, events } = run([create, branch('b'), settings('b', { model }), merge('b'), branch('c')]);
    const merged = events.find((e) => e.type === 'BranchMerged')!;
    expect(merged.type === 'BranchMerged' && merged.data.changes.settings).toEqual({ model });
    expect(mainSettings(state)).toEqual({ model });
    expect(state.branches.get('c')!.content.settings).toEqual({ model });
  });

  it('merges different fields changed on both sides without a conflict', () => {
    const { state } = run([
      create,
      branch('a'),
      branch('b'),
      settings('a', { confidence_threshold: 0.3 }),
      merge('a'),
      settings('b', { fallback_text: 'Call us instead.' }),
      merge('b'),
    ]);
    expect(mainSettings(state)).toEqual({ confidence_threshold: 0.3, fallback_text: 'Call us instead.' });
  });

  it('answers MERGE_CONFLICT when both sides changed the same field differently, and a resolution settles it', () => {
    const before: Cmd[] = [
      create,
      branch('a'),
      branch('b'),
      settings('a', { confidence_threshold: 0.3 }),
      merge('a'),
      settings('b', { confidence_threshold: 0.7 }),
    ];
    const error = refusal(before, merge('b'));
    expect(error.code).toBe('MERGE_CONFLICT');
    expect((error.data as { conflicts: unknown[] }).conflicts).toEqual([
      { path: ['settings', 'confidence_threshold'], ours: 0.3, theirs: 0.7, base: null },
    ]);
    const theirs = run([...before, merge('b', [{ path: ['settings', 'confidence_threshold'], strategy: 'theirs' }])]);
    expect(mainSettings(theirs.state)).toEqual({ confidence_threshold: 0.7 });
    const value = run([
      ...before,
      merge('b', [{ path: ['settings', 'confidence_threshold'], strategy: 'ours', value: 0.5 }]),
    ]);
    expect(mainSettings(value.state)).toEqual({ confidence_threshold: 0.5 });
    const base = run([...before, merge('b', [{ path: ['settings', 'confidence_threshold'], strategy: 'base' }])]);
    expect(mainSettings(base.state)).toEqual({});
    const invalid = refusal(
      before,
      merge('b', [{ path: ['settings', 'confidence_threshold'], strategy: 'ours', value: 'high' }]),
    );
    expect(invalid.status).toBe(400);
  });

  it('compares model settings by value, whatever the order of their keys', () => {
    const one = { provider: 'openai' as const, model: 'm', temperature: 0 };
    const other = { temperature: 0, model: 'm', provider: 'openai' as const };
    const { state } = run([
      create,
      branch('a'),
      branch('b'),
      settings('a', { model: one }),
      merge('a'),
      settings('b', { model: other }),
      merge('b'),
    ]);
    expect(mainSettings(state)).toEqual({ model: one });
  });
});

describe('privacy settings merge like the others', () => {
  it("merges a branch's privacy.redact onto main beside main's own change, and the same kinds in another order do not conflict", () => {
    const { state } = run([
      create,
      branch('a'),
      branch('b'),
      settings('a', { privacy: { redact: ['ssn', 'email'] } }),
      settings('b', { privacy: { redact: ['email', 'ssn'] }, small_talk: false }),
      merge('a'),
      merge('b'),
    ]);
    expect(mainSettings(state)).toEqual({ small_talk: false, privacy: { redact: ['email', 'ssn'] } });
  });
});

describe('runtime settings validation', () => {
  it.each([
    ['confidence_threshold', -0.1],
    ['confidence_threshold', '0.5'],
    ['fallback_text', ''],
    ['fallback_text', 'x'.repeat(2001)],
    ['small_talk', 'yes'],
    ['model', { provider: 'acme', model: 'm' }],
    ['model', { provider: 'openai' }],
    ['model', { provider: 'openai', model: 'm', temperature: 3 }],
    ['model', { provider: 'openai', model: 'm', max_tokens: 0 }],
    ['model', { provider: 'openai', model: 'm', max_tokens: 1.5 }],
    ['model', { provider: 'openai', model: 'm', endpoint: 'Not A Name' }],
    ['model', { provider: 'openai', model: 'm', api_key: 'sk-1' }],
    ['environment_models', { staging: { provider: 'embedded' } }],
    ['environment_models', []],
    ['voice', { recording: 'yes' }],
    ['voice', { record: true }],
    ['voice', true],
    ['voice', { end_of_turn_min_ms: 50 }],
    ['voice', { end_of_turn_max_ms: 9000 }],
    ['voice', { end_of_turn_min_ms: 300.5 }],
    ['voice', { end_of_turn_min_ms: '300' }],
    ['voice', { end_of_turn_min_ms: 900, end_of_turn_max_ms: 800 }],
    ['privacy', { redact: ['email', 'passport'] }],
    ['privacy', { redact: ['email', 'email'] }],
    ['privacy', { redact: 'email' }],
    ['privacy', { redact: [{ kind: 'email' }] }],
    ['privacy', { redacted: ['email'] }],
    ['privacy', ['email']],
  ] as const)('refuses %s = %j', (field, value) => {
    expect(() => checkSetting(field, value)).toThrow(DomainError);
  });

  it('accepts the embedded provider without a model, and drops environments set to null', () => {
    expect(checkSetting('environment_models', { live: { provider: 'embedded' }, sandbox: null })).toEqual({
      live: { provider: 'embedded' },
    });
  });

  it('keeps voice.recording as set; an empty voice object is the default', () => {
    expect(checkSetting('voice', { recording: true })).toEqual({ recording: true });
    expect(checkSetting('voice', { recording: null })).toBeUndefined();
    expect(applySettingsPatch({ small_talk: false }, { voice: { recording: false } })).toEqual({
      small_talk: false,
      voice: { recording: false },
    });
  });

  it('keeps the end-of-turn bounds as set', () => {
    expect(checkSetting('voice', { end_of_turn_min_ms: 250, end_of_turn_max_ms: 2000 })).toEqual({
      end_of_turn_min_ms: 250,
      end_of_turn_max_ms: 2000,
    });
    expect(checkSetting('voice', { end_of_turn_max_ms: 400, recording: true })).toEqual({
      end_of_turn_max_ms: 400,
      recording: true,
    });
  });

  it('keeps privacy.redact in one order whatever order it came in; an empty list is the default', () => {
    expect(checkSetting('privacy', { redact: ['ssn', 'email', 'card'] })).toEqual({ redact: ['email', 'card', 'ssn'] });
    expect(checkSetting('privacy', { redact: [] })).toBeUndefined();
    expect(checkSetting('privacy', { redact: null })).toBeUndefined();
    expect(applySettingsPatch({ small_talk: false }, { privacy: { redact: ['iban'] } })).toEqual({
      small_talk: false,
      privacy: { redact: ['iban'] },
    });
  });

  it('refuses an unknown field', () => {
    expect(() => applySettingsPatch({}, { threshold: 1 } as RuntimeSettingsPatch)).toThrow(/threshold/);
  });
});
