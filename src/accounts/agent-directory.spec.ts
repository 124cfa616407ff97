import { DeferredReadModels } from '../../test/fixtures/deferred-read-models';
import { ReadModelAgentDirectory } from './agent-directory';

/** Owners are remembered, but never from a lookup that an invalidation overtook (PostgreSQL answers later). */
describe('ReadModelAgentDirectory on a read model that answers later', () => {
  it('remembers an owner it looked up', async () => {
    const db = new DeferredReadModels();
    const directory = new ReadModelAgentDirectory(db.asReadModels());
    const first = directory.accountOf('agent-1');
    db.answer([{ account_id: 'acme', deleted_at: null }]);
    expect(await first).toBe('acme');
    expect(directory.accountOf('agent-1')).toBe('acme');
    expect(db.pending).toHaveLength(0);
  });

  it('does not remember an answer that an AgentDeleted overtook, and asks again', async () => {
    const db = new DeferredReadModels();
    const directory = new ReadModelAgentDirectory(db.asReadModels());
    const first = directory.accountOf('agent-1');
    // the deletion commits while the lookup is on its way: its answer may predate it
    db.applied('agents', 'AgentDeleted');
    db.answer([{ account_id: 'acme', deleted_at: null }]);
    expect(await first).toBe('acme');
    const second = directory.accountOf('agent-1');
    expect(second).toBeInstanceOf(Promise);
    db.answer([{ account_id: 'acme', deleted_at: '2026-01-01T00:00:00.000Z' }]);
    expect(await second).toBeNull();
  });

  it('forgets what it remembered when an owner may have changed', async () => {
    const db = new DeferredReadModels();
    const directory = new ReadModelAgentDirectory(db.asReadModels());
    const first = directory.accountOf('agent-1');
    db.answer([{ account_id: 'acme', deleted_at: null }]);
    await first;
    db.applied('agents', 'TopicEdited');
    expect(directory.accountOf('agent-1')).toBe('acme');
    db.applied('agents', 'AgentDeleted');
    expect(directory.accountOf('agent-1')).toBeInstanceOf(Promise);
  });
});
