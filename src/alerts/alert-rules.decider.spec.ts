import { DomainError } from '../platform/errors/domain-error';
import type { AlertRulesEvent, RuleSettings } from './alert-rule.events';
import { alertRulesDecider, MAX_RULES, type AlertRulesCommand, type AlertRulesState } from './alert-rules.decider';

const settings: RuleSettings = {
  name: 'slow',
  projectId: null,
  metric: 'turn_latency_p95',
  operator: '>=',
  thresholdValue: 800,
  windowDuration: '5m',
  enabled: true,
};
const now = '2026-01-01T00:00:00.000Z';

function run(commands: AlertRulesCommand[]): { state: AlertRulesState; events: AlertRulesEvent[] } {
  let state = alertRulesDecider.initialState();
  const events: AlertRulesEvent[] = [];
  for (const command of commands) {
    const decided = alertRulesDecider.decide(command, state);
    events.push(...decided);
    state = decided.reduce(alertRulesDecider.evolve, state);
  }
  return { state, events };
}

const create = (ruleId: string): AlertRulesCommand => ({ type: 'CreateRule', ruleId, accountId: 'acc', settings, now });

function status(run_: () => unknown): number {
  try {
    run_();
  } catch (error) {
    return (error as DomainError).status;
  }
  return 0;
}

describe('alert rules decider', () => {
  it('creates, updates only what changed, deletes', () => {
    const { state, events } = run([
      create('ar_1'),
      { type: 'UpdateRule', ruleId: 'ar_1', accountId: 'acc', changes: { thresholdValue: 900, name: 'slow' }, now },
      { type: 'UpdateRule', ruleId: 'ar_1', accountId: 'acc', changes: { thresholdValue: 900 }, now },
    ]);
    expect(events.map((e) => e.type)).toEqual(['AlertRuleCreated', 'AlertRuleUpdated']);
    expect(events[1].data).toMatchObject({ changes: { thresholdValue: 900 } });
    expect(state.rules.get('ar_1')!.thresholdValue).toBe(900);
    const deleted = run([create('ar_1'), { type: 'DeleteRule', ruleId: 'ar_1', accountId: 'acc', now }]);
    expect(deleted.state.rules.size).toBe(0);
  });

  it(`refuses the ${MAX_RULES + 1}th live rule with 409, counting deleted rules out`, () => {
    const ten = Array.from({ length: MAX_RULES }, (_, i) => create(`ar_${i}`));
    const { state } = run(ten);
    expect(status(() => alertRulesDecider.decide(create('ar_x'), state))).toBe(409);
    const freed = run([...ten, { type: 'DeleteRule', ruleId: 'ar_3', accountId: 'acc', now }, create('ar_x')]);
    expect(freed.state.rules.size).toBe(MAX_RULES);
  });

  it('answers 404 for a rule that is unknown or deleted', () => {
    const { state } = run([create('ar_1'), { type: 'DeleteRule', ruleId: 'ar_1', accountId: 'acc', now }]);
    expect(
      status(() =>
        alertRulesDecider.decide(
          { type: 'UpdateRule', ruleId: 'ar_1', accountId: 'acc', changes: { enabled: false }, now },
          state,
        ),
      ),
    ).toBe(404);
    expect(
      status(() => alertRulesDecider.decide({ type: 'DeleteRule', ruleId: 'ar_1', accountId: 'acc', now }, state)),
    ).toBe(404);
    expect(
      status(() => alertRulesDecider.decide({ type: 'DeleteRule', ruleId: 'ar_2', accountId: 'acc', now }, state)),
    ).toBe(404);
  });

  it.each(['name', 'metric', 'operator', 'thresholdValue', 'windowDuration', 'enabled'])(
    'refuses %s null in an update, recording nothing',
    (field) => {
      const { state } = run([create('ar_1')]);
      const update: AlertRulesCommand = {
        type: 'UpdateRule',
        ruleId: 'ar_1',
        accountId: 'acc',
        changes: { [field]: null } as Partial<RuleSettings>,
        now,
      };
      const error = (() => {
        try {
          alertRulesDecider.decide(update, state);
        } catch (e) {
          return e as DomainError;
        }
        throw new Error('expected a refusal');
      })();
      expect({ code: error.code, status: error.status, fields: error.fieldErrors }).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        fields: [{ field, message: `${field} must not be null` }],
      });
    },
  );

  it('keeps projectId null (the whole account) and refuses wrong types and unknown values on create', () => {
    expect(run([create('ar_1')]).events).toHaveLength(1); // settings.projectId is null
    const bad = (over: Partial<Record<keyof RuleSettings, unknown>>) =>
      status(() =>
        alertRulesDecider.decide(
          {
            type: 'CreateRule',
            ruleId: 'ar_1',
            accountId: 'acc',
            settings: { ...settings, ...over } as RuleSettings,
            now,
          },
          alertRulesDecider.initialState(),
        ),
      );
    expect(bad({ thresholdValue: '800' })).toBe(400);
    expect(bad({ metric: 'cpu' })).toBe(400);
    expect(bad({ enabled: 1 })).toBe(400);
    expect(bad({ projectId: 7 })).toBe(400);
    expect(bad({ projectId: 'ag1' })).toBe(0);
  });
});
