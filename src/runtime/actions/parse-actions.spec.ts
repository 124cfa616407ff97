import { parseActions } from './parse-actions';

describe('parseActions', () => {
  it('parses names and key=value arguments, with line numbers', () => {
    const { actions, errors } = parseActions('set_state key=plan value=gold\nlog_metric name=csat value=5');
    expect(errors).toEqual([]);
    expect(actions).toEqual([
      { name: 'set_state', args: { key: 'plan', value: 'gold' }, line: 1 },
      { name: 'log_metric', args: { name: 'csat', value: '5' }, line: 2 },
    ]);
  });

  it('accepts quoted values with spaces, escaped quotes and backslashes', () => {
    const { actions, errors } = parseActions('send_sms text="Your code is \\"1234\\", see C:\\\\help" to=me');
    expect(errors).toEqual([]);
    expect(actions[0].args).toEqual({ text: 'Your code is "1234", see C:\\help', to: 'me' });
  });

  it('accepts empty values, and keeps = and other characters inside values', () => {
    const { actions } = parseActions(
      'set_state key=note value=\nset_state key=url value=https://x.test/?a=1&b=2\nset_state key=e value=""',
    );
    expect(actions.map((a) => a.args.value)).toEqual(['', 'https://x.test/?a=1&b=2', '']);
  });

  it('accepts an action without arguments', () => {
    expect(parseActions('end_conversation').actions).toEqual([{ name: 'end_conversation', args: {}, line: 1 }]);
  });

  it('ignores blank lines and comments, counting them in line numbers', () => {
    const { actions, errors } = parseActions('\n# a comment\n   \n  # indented comment\n  end_conversation  \r\n');
    expect(errors).toEqual([]);
    expect(actions).toEqual([{ name: 'end_conversation', args: {}, line: 5 }]);
  });

  it('parses nothing from empty text', () => {
    expect(parseActions('')).toEqual({ actions: [], errors: [] });
  });

  it('reports malformed lines and keeps parsing the others', () => {
    const text = [
      'send_sms text="unterminated',
      'set_state key value=1',
      'handoff destination=desk',
      'set_state key=a key=b',
      'log_metric name="x"y',
      '=oops',
      'set_state 9key=1',
    ].join('\n');
    const { actions, errors } = parseActions(text);
    expect(actions).toEqual([{ name: 'handoff', args: { destination: 'desk' }, line: 3 }]);
    expect(errors.map((e) => e.line)).toEqual([1, 2, 4, 5, 6, 7]);
    expect(errors[0].message).toMatch(/unterminated/);
    expect(errors[1].message).toMatch(/expected key=value/);
    expect(errors[2].message).toMatch(/given twice/);
    expect(errors[3].message).toMatch(/space after the quoted value/);
    expect(errors[4].message).toMatch(/action name/);
    expect(errors[5].message).toMatch(/invalid argument name/);
  });

  it('does not judge action names: unknown ones are for the runner', () => {
    expect(parseActions('teleport where=mars').actions).toEqual([
      { name: 'teleport', args: { where: 'mars' }, line: 1 },
    ]);
  });
});
