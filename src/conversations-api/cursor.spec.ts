import { ServerSecret } from '../platform/auth/server-secret';
import { DomainError } from '../platform/errors/domain-error';
import { Cursors } from './cursor';
import { parseListQuery } from './list-query';

describe('Cursors', () => {
  const cursors = new Cursors(new ServerSecret('a-server-secret-for-tests-0123456789abcdef'));
  const filters = parseListQuery('v3', { client_env: 'sandbox', channel: 'CHAT' });

  it('round-trips a keyset position and an offset', () => {
    const after = { after: { startedAt: '2026-01-01T00:00:00.000Z', id: 'AS_CHAT_1' } };
    expect(cursors.decode(cursors.encode(filters, 'agent1', after), filters, 'agent1')).toEqual(after);
    expect(cursors.decode(cursors.encode(filters, 'agent1', { offset: 40 }), filters, 'agent1')).toEqual({
      offset: 40,
    });
  });

  it('is opaque: no field is readable in the clear', () => {
    const cursor = cursors.encode(filters, 'agent1', {
      after: { startedAt: '2026-01-01T00:00:00.000Z', id: 'AS_CHAT_1' },
    });
    expect(cursor).not.toContain('AS_CHAT_1');
  });

  const refuses = (run: () => unknown) => {
    expect(run).toThrow(DomainError);
    try {
      run();
    } catch (error) {
      expect((error as DomainError).status).toBe(400);
    }
  };

  it('refuses a tampered, forged, truncated or foreign cursor', () => {
    const cursor = cursors.encode(filters, 'agent1', { offset: 5 });
    const [body, signature] = cursor.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), o: 500 }),
    ).toString('base64url');
    refuses(() => cursors.decode(`${forgedBody}.${signature}`, filters, 'agent1'));
    refuses(() =>
      cursors.decode(`${body}.${signature.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`, filters, 'agent1'),
    );
    refuses(() => cursors.decode(body, filters, 'agent1'));
    refuses(() => cursors.decode('not-a-cursor', filters, 'agent1'));
    refuses(() =>
      cursors.decode(
        new Cursors(new ServerSecret('another-secret-0123456789abcdef-xyz')).encode(filters, 'agent1', { offset: 5 }),
        filters,
        'agent1',
      ),
    );
  });

  it('belongs to its filters and project', () => {
    const cursor = cursors.encode(filters, 'agent1', { offset: 5 });
    refuses(() => cursors.decode(cursor, parseListQuery('v3', { client_env: 'live', channel: 'CHAT' }), 'agent1'));
    refuses(() => cursors.decode(cursor, filters, 'agent2'));
    // the page size and the include flags are not filters: they may change between pages
    expect(
      cursors.decode(
        cursor,
        parseListQuery('v3', { client_env: 'sandbox', channel: 'CHAT', limit: '50', include_latency: 'true' }),
        'agent1',
      ),
    ).toEqual({ offset: 5 });
  });
});
