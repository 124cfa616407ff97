import { DomainError } from '../platform/errors/domain-error';
import { parseListQuery, parseOneQuery } from './list-query';

const range = { start_time: '2026-01-01T00:00:00Z', end_time: '2026-02-01T00:00:00Z' };

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('parseListQuery', () => {
  it('has the documented defaults', () => {
    expect(parseListQuery('v3', {})).toMatchObject({
      clientEnv: 'live',
      limit: 5,
      offset: 0,
      cursor: null,
      channels: [],
      inProgress: null,
      search: null,
      sample: false,
      includeLatency: false,
    });
  });

  it('reads every filter, repeated channels included', () => {
    const q = parseListQuery('v3', {
      ...range,
      client_env: 'sandbox',
      channel: ['CHAT', 'WEBCHAT'],
      variant_id: 'v1',
      variant_name: 'A B',
      in_progress: 'false',
      limit: '100',
      offset: '10',
      include_latency: 'true',
      include_context_state: '1',
      include_turn_metadata: 'false',
    });
    expect(q).toMatchObject({
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-02-01T00:00:00.000Z',
      clientEnv: 'sandbox',
      channels: ['CHAT', 'WEBCHAT'],
      variantId: 'v1',
      variantName: 'A B',
      inProgress: false,
      limit: 100,
      offset: 10,
      includeLatency: true,
      includeContextState: true,
      includeTurnMetadata: false,
    });
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '5001' }, 'limit'],
    [{ limit: 'x' }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ client_env: 'prod' }, 'client_env'],
    [{ in_progress: 'maybe' }, 'in_progress'],
    [{ start_time: 'yesterday' }, 'start_time'],
    [{ start_time: '2026-02-02', end_time: '2026-02-01' }, 'start_time'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ ...range, query_type: 'fuzzy', query: 'x' }, 'query_type'],
    [{ ...range, query_type: 'transcript' }, 'query'],
    [{ ...range, query: 'refund' }, 'query'],
    [{ query_type: 'transcript', query: 'refund' }, 'start_time'],
    [{ start_time: range.start_time, sample: 'random' }, 'end_time'],
    [{ ...range, sample: 'random', query_type: 'transcript', query: 'x' }, 'sample'],
    [{ ...range, sample: 'everything' }, 'sample'],
    [{ ...range, query_type: 'semantic', query: 'x', turn_type: 'user' }, 'turn_type'],
    [{ ...range, query_type: 'transcript', query: 'x', turn_type: 'bot' }, 'turn_type'],
  ])('refuses %j with a 400 naming %s', (raw, field) => {
    const error = refusal(() => parseListQuery('v3', raw));
    expect(error.status).toBe(400);
    expect(error.message).toContain(field);
  });

  it('accepts one retrieval mode with its query and a bounded range', () => {
    expect(
      parseListQuery('v3', { ...range, query_type: 'transcript', query: ' refund ', turn_type: 'user' }).search,
    ).toEqual({ type: 'transcript', query: 'refund', turnType: 'user' });
    expect(parseListQuery('v3', { ...range, sample: 'random' }).sample).toBe(true);
  });

  it.each(['query_type', 'sample', 'query', 'turn_type', 'channel', 'cursor', 'outcome'])(
    'v1 refuses the v3-only parameter %s',
    (name) => {
      const error = refusal(() => parseListQuery('v1', { [name]: 'x' }));
      expect(error.status).toBe(400);
      expect(error.message).toContain(name);
    },
  );

  it('reads repeated outcomes (v3 and v2), each once, and refuses unknown ones', () => {
    expect(parseListQuery('v3', { outcome: ['handoff', 'contained', 'handoff'] }).outcomes).toEqual([
      'handoff',
      'contained',
    ]);
    expect(parseListQuery('v3', {}).outcomes).toEqual([]);
    expect(refusal(() => parseListQuery('v3', { outcome: ['contained', 'solved'] })).message).toContain('outcome');
    expect(parseListQuery('v2', { outcome: 'abandoned' }).outcomes).toEqual(['abandoned']);
  });

  it('v1 keeps the shared parameters', () => {
    expect(parseListQuery('v1', { limit: '7', offset: '3', client_env: 'sandbox' })).toMatchObject({
      limit: 7,
      offset: 3,
      clientEnv: 'sandbox',
    });
  });
});

describe('parseOneQuery', () => {
  it('reads as_of as a revision or an ISO time', () => {
    expect(parseOneQuery({ as_of: '3' }).asOf).toEqual({ revision: 3 });
    expect(parseOneQuery({ as_of: '2026-01-01T10:00:00+01:00' }).asOf).toEqual({ time: '2026-01-01T09:00:00.000Z' });
    expect(parseOneQuery({}).asOf).toBeNull();
  });

  it('refuses an as_of that is neither', () => {
    expect(refusal(() => parseOneQuery({ as_of: 'last tuesday' })).message).toContain('as_of');
  });
});
