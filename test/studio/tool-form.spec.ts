import { emptyTurn, parseHeaders, parseParameters, rowToTurn, turnToRow } from '../../studio/src/tool-form';

describe('Studio tool and test forms', () => {
  it('takes only a JSON object as a tool’s parameters', () => {
    expect(parseParameters('{"type": "object"}')).toEqual({ value: { type: 'object' } });
    expect(parseParameters('{"type": ').error).toMatch(/^not JSON/);
    for (const text of ['[]', 'null', '"object"', '3']) {
      expect(parseParameters(text).error).toMatch(/must be a JSON object/);
    }
  });

  it('reads headers one `Name: value` a line, refusing a line without a name', () => {
    expect(parseHeaders('Authorization: Bearer a:b\n\n X-Env : prod ')).toEqual({
      value: { Authorization: 'Bearer a:b', 'X-Env': 'prod' },
    });
    expect(parseHeaders('')).toEqual({ value: {} });
    expect(parseHeaders('ok: 1\n: no name').error).toBe('line 2: expected Name: value');
    expect(parseHeaders('no colon').error).toBe('line 1: expected Name: value');
  });

  it('sends only the expectations filled in, and reads a turn back unchanged', () => {
    expect(rowToTurn({ ...emptyTurn(), user: 'hi' })).toEqual({ user: 'hi' });
    const turn = {
      user: 'I want a person',
      expect: { topic: 'Escalate', not_contains: 'sorry', actions: ['handoff', 'log_metric'], handoff: true },
    };
    const row = turnToRow(turn);
    expect(row.actions).toBe('handoff, log_metric');
    expect(rowToTurn(row)).toEqual(turn);
    expect(rowToTurn({ ...row, actions: ' , ', topic: '  ', handoff: false }).expect).toEqual({
      not_contains: 'sorry',
    });
  });
});
