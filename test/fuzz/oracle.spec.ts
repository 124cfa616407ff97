import { answerProblems, brokenParts, requestSeries } from './oracle';
import { parseRouteTree } from './route-catalog';

/** The fuzz suite's own judges: a wrong judge would make every run pass or every run fail. */

const headers = (id: string) => new Headers({ 'x-correlation-id': id, 'content-type': 'application/json' });
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const envelope = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    success: false,
    error: 'bad',
    error_id: ID,
    error_code: 'VALIDATION_ERROR',
    error_message: 'bad',
    data: null,
    ...extra,
  });

describe('the fuzz oracle', () => {
  test('accepts the envelope and its Alerts and SMS flavours', () => {
    expect(answerProblems('/v1/agents/x', { status: 400, headers: headers(ID), text: envelope() })).toEqual([]);
    expect(
      answerProblems('/v1/alert-rules/x', {
        status: 422,
        headers: headers(ID),
        text: envelope({ message: 'bad', errors: [{ field: 'name', message: 'bad' }] }),
      }),
    ).toEqual([]);
    expect(
      answerProblems('/v1/outbound-sms', { status: 400, headers: headers(ID), text: envelope({ detail: 'bad' }) }),
    ).toEqual([]);
    expect(answerProblems('/v1/agents/x', { status: 201, headers: headers(ID), text: '{}' })).toEqual([]);
  });

  test('refuses a 5xx, a foreign body, a missing flavour field, a mismatched id and a stack trace', () => {
    expect(answerProblems('/v1/agents/x', { status: 500, headers: headers(ID), text: envelope() })).toContain(
      '5xx: 500',
    );
    expect(
      answerProblems('/v1/agents/x', {
        status: 400,
        headers: headers(ID),
        text: '{"statusCode":400,"code":"FST_ERR_BAD_URL","error":"Bad Request","message":"x"}',
      }),
    ).toEqual(['not the envelope: a body with code, error, message, statusCode']);
    expect(answerProblems('/v1/alert-rules', { status: 400, headers: headers(ID), text: envelope() })).toContain(
      'Alerts flavour: message differs from error',
    );
    expect(answerProblems('/v1/outbound-sms', { status: 400, headers: headers(ID), text: envelope() })).toContain(
      'SMS flavour: detail differs from error',
    );
    expect(answerProblems('/v1/agents/x', { status: 400, headers: headers('another'), text: envelope() })).toContain(
      'error_id differs from the X-Correlation-Id header',
    );
    expect(
      answerProblems('/v1/agents/x', {
        status: 400,
        headers: headers(ID),
        text: envelope({ error: 'x\n    at f (/app/src/a.ts:1:2)', error_message: 'x\n    at f (/app/src/a.ts:1:2)' }),
      }),
    ).toContain('a stack trace or source path in the body');
    expect(answerProblems('/v1/agents/x', { status: 400, headers: headers(ID), text: 'Bad Request' })).toEqual([
      'not JSON (content-type application/json)',
    ]);
  });

  test('names failed read models, erroring process managers and dead letters', () => {
    const readyz = {
      projections: [
        { name: 'alerts', state: 'failed', error: 'NOT NULL constraint failed' },
        { name: 'agents', state: 'serving', error: null, deadLetters: 2 },
        { name: 'keys', state: 'serving', error: null },
      ],
      processManagers: [{ name: 'bind', error: 'Maximum call stack size exceeded' }],
    };
    expect(brokenParts(readyz)).toEqual([
      'read model alerts failed: NOT NULL constraint failed',
      'read model agents: deadLetters = 2',
      'process manager bind: Maximum call stack size exceeded',
    ]);
  });

  test('reads request counts from /metrics', () => {
    expect(
      requestSeries('# HELP x\nparley_http_requests_total{route="/v1/agents/:agentId",method="GET",status="200"} 3\n'),
    ).toEqual([{ route: '/v1/agents/:agentId', method: 'GET', status: '200', count: 3 }]);
  });
});

describe('the route catalogue', () => {
  test('joins the tree printRoutes draws into whole paths, without HEAD', () => {
    const tree = [
      '└── /',
      '    ├── healthz (GET, HEAD)',
      '    └── v1/agents/:agentId (GET, HEAD, DELETE)',
      '        ├── /branches (GET, POST)',
      '        │   └── /:branchId (DELETE)',
      '        └── /deployments (GET)',
    ].join('\n');
    expect(parseRouteTree(tree)).toEqual([
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/v1/agents/:agentId' },
      { method: 'DELETE', url: '/v1/agents/:agentId' },
      { method: 'GET', url: '/v1/agents/:agentId/branches' },
      { method: 'POST', url: '/v1/agents/:agentId/branches' },
      { method: 'DELETE', url: '/v1/agents/:agentId/branches/:branchId' },
      { method: 'GET', url: '/v1/agents/:agentId/deployments' },
    ]);
  });

  test('puts back the slash a wildcard follows (find-my-way draws /studio/* as /studio then *)', () => {
    const tree = ['└── /studio (GET, HEAD)', '    ├── /config.json (GET, HEAD)', '    └── * (GET, HEAD)'].join('\n');
    expect(parseRouteTree(tree)).toEqual([
      { method: 'GET', url: '/studio' },
      { method: 'GET', url: '/studio/config.json' },
      { method: 'GET', url: '/studio/*' },
    ]);
  });
});
