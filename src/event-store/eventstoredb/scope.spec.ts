import { scopeOf } from './scope';
import { isSystemEvent } from './system-events';

describe('scopeOf', () => {
  it('unscoped: names pass through and $all is filtered to non-system event types', () => {
    const scope = scopeOf(undefined);
    expect(scope.toServer('order-1')).toBe('order-1');
    expect(scope.fromServer('order-1')).toBe('order-1');
    expect(scope.filter(500)).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*', checkpointInterval: 500 });
  });

  it('namespaced: every stream gets the prefix, and $all is filtered to streams that carry it', () => {
    const scope = scopeOf('run-1a2b-');
    expect(scope.toServer('order-1')).toBe('run-1a2b-order-1');
    expect(scope.fromServer('run-1a2b-order-1')).toBe('order-1');
    expect(scope.filter()).toMatchObject({ filterOn: 'streamName', prefixes: ['run-1a2b-'] });
  });

  it('refuses a namespace in the server’s own $ space', () => {
    expect(() => scopeOf('$tests-')).toThrow(RangeError);
  });
});

describe('isSystemEvent', () => {
  it('knows the server’s events by a $ in front of the type or the stream', () => {
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(true);
    expect(isSystemEvent({ streamId: '$$order-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: '$ce-order', type: '$>' })).toBe(true);
    expect(isSystemEvent({ streamId: 'order-1', type: '$>' })).toBe(true);
    expect(isSystemEvent({ streamId: '$scavenges', type: 'ScavengeStarted' })).toBe(true);
    expect(isSystemEvent({ streamId: 'order-1', type: 'OrderPlaced' })).toBe(false);
  });
});
