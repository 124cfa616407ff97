import { DEFAULT_DATA_ACCESS, filterConversation, type DataAccessConfig } from './data-access';
import type { Permission } from './permissions';

function conversation() {
  return {
    id: 'AS_CHAT_0b7f3a1e-0000-4000-8000-000000000001',
    account_id: 'ws-acc1',
    project_id: 'PROJECT-ag1',
    started_at: '2026-11-22T10:00:00.000Z',
    ended_at: '2026-11-22T10:05:00.000Z',
    channel: 'CHAT',
    metrics: {
      CALL_IN_PROGRESS: 'false',
      CALL_COMPLETED: 'true',
      HANDOFF_REASON: 'billing',
      HANDOFF_TO: 'desk',
      refund_amount: ['10', '20'],
      nps: '9',
    } as Record<string, unknown>,
    turns: [{ user_input: 'hi' }, { user_input: 'refund' }, { user_input: 'bye' }],
    num_turns: 3,
  };
}

const BASIC = ['account_id', 'id', 'project_id', 'started_at'];

const permissionSets: Array<[string, Permission[]]> = [
  ['conversations only', ['conversations']],
  ['conversations among others', ['agents', 'conversations', 'handoff']],
  ['no permission', []],
  ['handoff + external_events (no conversations)', ['handoff', 'external_events']],
  [
    'every other permission',
    ['handoff', 'external_events', 'agents', 'alerts', 'outbound_calling', 'sms', 'keys', 'desk'],
  ],
];

const metricConfigs: Array<[string, string[], Record<string, unknown>]> = [
  ['no metric enabled', [], {}],
  ['some built-in metrics', ['CALL_COMPLETED', 'HANDOFF_TO'], { CALL_COMPLETED: 'true', HANDOFF_TO: 'desk' }],
  [
    'custom metric names',
    ['refund_amount', 'HANDOFF_REASON'],
    { refund_amount: ['10', '20'], HANDOFF_REASON: 'billing' },
  ],
  ['enabled names the conversation never logged', ['CALL_IN_PROGRESS', 'not_logged'], { CALL_IN_PROGRESS: 'false' }],
  [
    'every name',
    ['CALL_IN_PROGRESS', 'CALL_COMPLETED', 'HANDOFF_REASON', 'HANDOFF_TO', 'refund_amount', 'nps'],
    conversation().metrics,
  ],
];

const cases = permissionSets.flatMap(([permName, permissions]) =>
  metricConfigs.flatMap(([metricName, responseMetrics, expectedMetrics]) =>
    [true, false].map(
      (showTranscripts) =>
        [
          `${permName} × ${metricName} × show_transcripts=${showTranscripts}`,
          permissions,
          responseMetrics,
          expectedMetrics,
          showTranscripts,
        ] as const,
    ),
  ),
);

describe('filterConversation (interface.md "Project-level response configuration", contract §4)', () => {
  it.each(cases)('%s', (_name, permissions, responseMetrics, expectedMetrics, showTranscripts) => {
    const input = conversation();
    const config: DataAccessConfig = { responseMetrics: [...responseMetrics], showTranscripts };
    const out = filterConversation(input, permissions, config) as Record<string, unknown>;

    if (!permissions.includes('conversations')) {
      // a key without the Conversations data permission sees the basic fields only
      expect(Object.keys(out).sort()).toEqual(BASIC);
      expect(out).toEqual({
        id: input.id,
        account_id: input.account_id,
        project_id: input.project_id,
        started_at: input.started_at,
      });
      return;
    }
    // data appears only when the key has the permission AND the project enabled it
    expect(out.metrics).toEqual(expectedMetrics);
    if (showTranscripts) {
      expect(out.turns).toEqual(input.turns);
    } else {
      expect(out.turns).toEqual([]);
    }
    // num_turns always reports the true count
    expect(out.num_turns).toBe(3);
    // everything else passes through
    expect(out).toMatchObject({
      id: input.id,
      account_id: input.account_id,
      project_id: input.project_id,
      started_at: input.started_at,
      ended_at: input.ended_at,
      channel: 'CHAT',
    });
  });

  it('the default configuration exposes no metric and no transcript', () => {
    expect(DEFAULT_DATA_ACCESS).toEqual({ responseMetrics: [], showTranscripts: false });
    const out = filterConversation(conversation(), ['conversations'], DEFAULT_DATA_ACCESS) as Record<string, unknown>;
    expect(out.metrics).toEqual({});
    expect(out.turns).toEqual([]);
    expect(out.num_turns).toBe(3);
  });

  it('never mutates the conversation it filters', () => {
    const input = conversation();
    const snapshot = JSON.parse(JSON.stringify(input));
    filterConversation(input, ['conversations'], { responseMetrics: ['nps'], showTranscripts: false });
    filterConversation(input, [], { responseMetrics: [], showTranscripts: false });
    expect(input).toEqual(snapshot);
  });

  it('an empty conversation keeps empty metrics and turns', () => {
    const input = { ...conversation(), metrics: {}, turns: [], num_turns: 0 };
    const out = filterConversation(input, ['conversations'], {
      responseMetrics: ['CALL_COMPLETED'],
      showTranscripts: true,
    }) as Record<string, unknown>;
    expect(out).toMatchObject({ metrics: {}, turns: [], num_turns: 0 });
  });
});
