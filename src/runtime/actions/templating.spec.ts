import { readPath, renderValue } from './templating';

const state = {
  name: 'Ada',
  count: 3,
  vip: true,
  nothing: null,
  customer: { tier: 'gold', address: { city: 'Lyon' } },
  external_event_ids: { payment: 'evt_1' },
  'flat.key': 'flat',
};

describe('renderValue', () => {
  it('replaces $state.key with the value', () => {
    expect(renderValue('Hello $state.name!', state)).toBe('Hello Ada!');
    expect(renderValue('$state.count items, vip=$state.vip', state)).toBe('3 items, vip=true');
  });

  it('walks dotted paths', () => {
    expect(renderValue('$state.customer.tier in $state.customer.address.city', state)).toBe('gold in Lyon');
    expect(renderValue('id $state.external_event_ids.payment', state)).toBe('id evt_1');
  });

  it('reads unknown keys and null as the empty string', () => {
    expect(renderValue('[$state.missing][$state.customer.missing.deeper][$state.nothing]', state)).toBe('[][][]');
  });

  it('does not treat a sentence-ending dot as part of the path', () => {
    expect(renderValue('Thanks $state.name.', state)).toBe('Thanks Ada.');
  });

  it('renders objects as JSON', () => {
    expect(renderValue('$state.customer.address', state)).toBe('{"city":"Lyon"}');
  });

  it('turns $$ into a literal $ and leaves other $ alone', () => {
    expect(renderValue('costs $$5', state)).toBe('costs $5');
    expect(renderValue('$$state.name', state)).toBe('$state.name');
    expect(renderValue('US$ 5 and $other', state)).toBe('US$ 5 and $other');
  });

  it('never reads inherited properties', () => {
    expect(renderValue('[$state.constructor][$state.name.length][$state.__proto__]', state)).toBe('[][][]');
  });

  it('leaves text without placeholders unchanged', () => {
    expect(renderValue('plain text', {})).toBe('plain text');
  });
});

describe('readPath', () => {
  it('prefers a top-level key spelled with dots', () => {
    expect(readPath(state, 'flat.key')).toBe('flat');
    expect(readPath(state, 'customer.address.city')).toBe('Lyon');
    expect(readPath(state, 'name.first')).toBeUndefined();
  });
});
