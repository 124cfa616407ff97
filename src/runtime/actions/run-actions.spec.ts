import { parseActions } from './parse-actions';
import type { FunctionResult } from './functions';
import { runActions, runActionsAsync, type ActionContext } from './run-actions';

const BUILT_INS = {
  conversation_id: 'conv_1',
  channel: 'sms',
  environment: 'live',
  caller_number: '+331',
  agent_number: '+332',
  language: 'en',
};

function context(state: Record<string, unknown> = BUILT_INS): ActionContext & { ids: string[] } {
  let n = 0;
  const ids: string[] = [];
  return {
    state,
    ids,
    newId: () => {
      const id = `evt_${++n}`;
      ids.push(id);
      return id;
    },
  };
}

const run = (text: string, ctx = context()) => {
  const parsed = parseActions(text);
  expect(parsed.errors).toEqual([]);
  return runActions(parsed.actions, ctx);
};

describe('runActions', () => {
  it('does nothing for no actions', () => {
    const out = runActions([], context());
    expect(out).toEqual({
      state: BUILT_INS,
      stateChanges: {},
      metrics: [],
      functionEvents: [],
      ended: false,
      awaitedEvents: [],
      sms: [],
      functionErrors: 0,
    });
  });

  describe('set_state', () => {
    it('sets a key, reports the change and leaves the input state untouched', () => {
      const input = { ...BUILT_INS };
      const out = run('set_state key=plan value="gold plus"', context(input));
      expect(out.state).toEqual({ ...BUILT_INS, plan: 'gold plus' });
      expect(out.stateChanges).toEqual({ plan: 'gold plus' });
      expect(input).toEqual(BUILT_INS);
      expect(out.functionEvents).toEqual([
        { name: 'set_state', args: { key: 'plan', value: 'gold plus' }, status: 'ok', line: 1 },
      ]);
    });

    it('sets nested keys without modifying the objects it was given', () => {
      const customer = { tier: 'silver', city: 'Lyon' };
      const out = run('set_state key=customer.tier value=gold', context({ customer }));
      expect(out.state).toEqual({ customer: { tier: 'gold', city: 'Lyon' } });
      expect(out.stateChanges).toEqual({ customer: { tier: 'gold', city: 'Lyon' } });
      expect(customer.tier).toBe('silver');
    });

    it('accepts an empty value and renders $state references', () => {
      const out = run('set_state key=greeting value="Hi $state.caller_number"\nset_state key=empty value=', context());
      expect(out.stateChanges).toEqual({ greeting: 'Hi +331', empty: '' });
    });

    it('refuses built-in keys and missing arguments as function errors', () => {
      const out = run(
        'set_state key=conversation_id value=x\nset_state key=a\nset_state value=1\nset_state key=name.__proto__ value=1',
        context(),
      );
      expect(out.functionErrors).toBe(4);
      expect(out.functionEvents.map((e) => e.error)).toEqual([
        'state key "conversation_id" is read-only',
        'missing required argument "value"',
        'missing required argument "key"',
        'invalid state key "name.__proto__"',
      ]);
      expect(out.state).toEqual(BUILT_INS);
      expect(out.stateChanges).toEqual({});
    });

    it('may change the language', () => {
      expect(run('set_state key=language value=fr').stateChanges).toEqual({ language: 'fr' });
    });
  });

  it('log_metric records metrics in order', () => {
    const out = run('log_metric name=csat value=5\nlog_metric name=channel value=$state.channel\nlog_metric value=1');
    expect(out.metrics).toEqual([
      { name: 'csat', value: '5' },
      { name: 'channel', value: 'sms' },
    ]);
    expect(out.functionErrors).toBe(1);
    expect(out.functionEvents[2]).toMatchObject({
      name: 'log_metric',
      status: 'error',
      error: 'missing required argument "name"',
    });
  });

  it('await_external_event creates an id and stores it under external_event_ids.<name>', () => {
    const ctx = context({ ...BUILT_INS, external_event_ids: { earlier: 'evt_0' } });
    const out = run('await_external_event name=payment\nawait_external_event name=signature', ctx);
    expect(ctx.ids).toEqual(['evt_1', 'evt_2']);
    expect(out.awaitedEvents).toEqual([
      { name: 'payment', eventId: 'evt_1' },
      { name: 'signature', eventId: 'evt_2' },
    ]);
    expect(out.state.external_event_ids).toEqual({ earlier: 'evt_0', payment: 'evt_1', signature: 'evt_2' });
    expect(out.stateChanges).toEqual({
      external_event_ids: { earlier: 'evt_0', payment: 'evt_1', signature: 'evt_2' },
    });
    expect(ctx.state.external_event_ids).toEqual({ earlier: 'evt_0' });
  });

  it('an awaited event id can be read by a later action', () => {
    const out = run(
      'await_external_event name=payment\nsend_sms text="Pay here: https://pay.test/$state.external_event_ids.payment"',
    );
    expect(out.sms).toEqual([{ text: 'Pay here: https://pay.test/evt_1' }]);
  });

  it('send_sms records the rendered text; an empty text is an error', () => {
    const out = run('send_sms text="Your order is on its way"\nsend_sms text=$state.missing\nsend_sms');
    expect(out.sms).toEqual([{ text: 'Your order is on its way' }]);
    expect(out.functionEvents.map((e) => e.status)).toEqual(['ok', 'error', 'error']);
    expect(out.functionEvents[1].error).toBe('argument "text" is empty');
  });

  describe('call_function', () => {
    it('echo succeeds and returns its arguments', () => {
      const out = run('call_function name=echo order=$state.conversation_id note="a b"');
      expect(out.functionErrors).toBe(0);
      expect(out.functionEvents).toEqual([
        {
          name: 'call_function',
          args: { name: 'echo', order: 'conv_1', note: 'a b' },
          status: 'ok',
          result: { order: 'conv_1', note: 'a b' },
          line: 1,
        },
      ]);
    });

    it('a failing function is a function error and later actions still run', () => {
      const out = run(
        'call_function name=fail\ncall_function name=fail message="card declined"\nlog_metric name=after value=1',
      );
      expect(out.functionErrors).toBe(2);
      expect(out.functionEvents.map((e) => [e.status, e.error])).toEqual([
        ['error', 'fail: this function always fails'],
        ['error', 'card declined'],
        ['ok', undefined],
      ]);
      expect(out.metrics).toEqual([{ name: 'after', value: '1' }]);
    });

    it('an unknown function, a missing name or a throwing function is a function error', () => {
      const functions = new Map([
        [
          'boom',
          () => {
            throw new Error('kaput');
          },
        ],
      ]);
      const ctx = { ...context(), functions };
      const out = runActions(
        parseActions('call_function name=nope\ncall_function\ncall_function name=boom').actions,
        ctx,
      );
      expect(out.functionEvents.map((e) => e.error)).toEqual([
        'unknown function "nope"',
        'missing required argument "name"',
        'kaput',
      ]);
      expect(out.functionErrors).toBe(3);
    });
  });

  describe('handoff', () => {
    it('hands off with reason, destination, listed state keys and shared id', () => {
      const ctx = context({ ...BUILT_INS, order: 'A-17', customer: { tier: 'gold' } });
      const out = run(
        'handoff destination=billing reason="disputed charge" shared_id=$state.conversation_id keys=order,customer.tier,missing',
        ctx,
      );
      expect(out.handoff).toEqual({
        destination: 'billing',
        reason: 'disputed charge',
        sharedId: 'conv_1',
        data: {
          order: 'A-17',
          'customer.tier': 'gold',
          missing: null,
          reason: 'disputed charge',
          destination: 'billing',
          shared_id: 'conv_1',
        },
      });
      expect(out.ended).toBe(false);
      expect(out.functionEvents).toHaveLength(1);
    });

    it('without shared_id or keys, data holds reason and destination', () => {
      const out = run('handoff destination=desk');
      expect(out.handoff).toEqual({ destination: 'desk', reason: '', data: { reason: '', destination: 'desk' } });
    });

    it('stops the run: later actions neither run nor are recorded', () => {
      const out = run(
        'set_state key=a value=1\nhandoff destination=desk reason=help\nset_state key=b value=2\nend_conversation',
      );
      expect(out.functionEvents.map((e) => e.name)).toEqual(['set_state', 'handoff']);
      expect(out.stateChanges).toEqual({ a: '1' });
      expect(out.ended).toBe(false);
    });

    it('without a destination is an error, and the run goes on', () => {
      const out = run('handoff reason=help\nlog_metric name=after value=1');
      expect(out.handoff).toBeUndefined();
      expect(out.functionErrors).toBe(1);
      expect(out.metrics).toHaveLength(1);
    });
  });

  it('end_conversation ends the run', () => {
    const out = run('send_sms text=bye\nend_conversation\nsend_sms text="never sent"');
    expect(out.ended).toBe(true);
    expect(out.sms).toEqual([{ text: 'bye' }]);
    expect(out.functionEvents.map((e) => e.name)).toEqual(['send_sms', 'end_conversation']);
  });

  it('an unknown action is a function error, never an exception', () => {
    const out = run('teleport where=mars\nset_state key=after value=yes');
    expect(out.functionEvents[0]).toEqual({
      name: 'teleport',
      args: { where: 'mars' },
      status: 'error',
      error: 'unknown action "teleport"',
      line: 1,
    });
    expect(out.functionErrors).toBe(1);
    expect(out.stateChanges).toEqual({ after: 'yes' });
  });

  it('runs actions in order, each seeing the state earlier ones left', () => {
    const out = run(
      [
        'set_state key=step value=1',
        'set_state key=trail value="$state.step"',
        'set_state key=step value=2',
        'set_state key=trail value="$state.trail,$state.step"',
        'log_metric name=trail value=$state.trail',
      ].join('\n'),
    );
    expect(out.state.trail).toBe('1,2');
    expect(out.metrics).toEqual([{ name: 'trail', value: '1,2' }]);
    expect(out.functionEvents.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('is deterministic: the same input gives the same outcome', () => {
    const text =
      'await_external_event name=x\nset_state key=y value=$state.external_event_ids.x\ncall_function name=echo a=1';
    expect(run(text, context())).toEqual(run(text, context()));
  });

  it('accepts actions without line numbers', () => {
    const out = runActions([{ name: 'log_metric', args: { name: 'm', value: 'v' } }], context());
    expect(out.functionEvents).toEqual([{ name: 'log_metric', args: { name: 'm', value: 'v' }, status: 'ok' }]);
  });
});

describe('runActionsAsync (agent tools, contract §20)', () => {
  const tool = (result: FunctionResult) => ({
    get: (name: string) => (name === 'lookup' ? async () => result : undefined),
  });

  it('awaits a function, stores its answer under functions.<name> and reads it in later actions', async () => {
    const out = await runActionsAsync(
      [
        { name: 'call_function', args: { name: 'lookup', order: '1' } },
        { name: 'set_state', args: { key: 'eta', value: '$state.functions.lookup.eta' } },
      ],
      {
        state: {},
        newId: () => 'id',
        functions: tool({ ok: true, result: { eta: 'Monday' }, stored: { value: { eta: 'Monday' } } }),
      },
    );
    expect(out.state).toEqual({ functions: { lookup: { eta: 'Monday' } }, eta: 'Monday' });
    expect(out.functionErrors).toBe(0);
    expect(out.fallback).toBeUndefined();
  });

  it('a failing call is a function error and names its fallback; the sync runner refuses async functions', async () => {
    const actions = [{ name: 'call_function', args: { name: 'lookup', fallback: 'Try later.' } }];
    const failed = await runActionsAsync(actions, {
      state: {},
      newId: () => 'id',
      functions: tool({ ok: false, error: 'lookup: timeout' }),
    });
    expect(failed).toMatchObject({ functionErrors: 1, fallback: 'Try later.' });
    expect(failed.functionEvents[0]).toMatchObject({ status: 'error', error: 'lookup: timeout' });
    const sync = runActions(actions, { state: {}, newId: () => 'id', functions: tool({ ok: true, result: {} }) });
    expect(sync).toMatchObject({ functionErrors: 1, fallback: 'Try later.' });
  });
});
