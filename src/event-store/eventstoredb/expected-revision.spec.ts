import { fromCurrentState, toStreamState } from './expected-revision';

describe('toStreamState', () => {
  it('maps each named expectation to the client constant', () => {
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState('stream_exists')).toBe('stream_exists');
  });

  it('passes an exact revision through as a bigint, including 0 and u64 values', () => {
    expect(toStreamState(0n)).toBe(0n);
    expect(toStreamState(41n)).toBe(41n);
    expect(toStreamState(2n ** 63n + 5n)).toBe(2n ** 63n + 5n);
  });

  it('refuses a negative revision and anything that is not one', () => {
    expect(() => toStreamState(-1n)).toThrow(RangeError);
    expect(() => toStreamState(3 as never)).toThrow(RangeError);
    expect(() => toStreamState('end' as never)).toThrow(RangeError);
  });
});

describe('fromCurrentState', () => {
  it('reads no_stream (and nothing reported) as a stream without events', () => {
    expect(fromCurrentState('no_stream')).toBeNull();
    expect(fromCurrentState(undefined)).toBeNull();
  });

  it('keeps a revision as the bigint it is', () => {
    expect(fromCurrentState(0n)).toBe(0n);
    expect(fromCurrentState(7n)).toBe(7n);
  });

  it('reads the negative markers of deleted (-5) and tombstoned (-6) streams as no events', () => {
    expect(fromCurrentState(-5n)).toBeNull();
    expect(fromCurrentState(-6n)).toBeNull();
  });
});
