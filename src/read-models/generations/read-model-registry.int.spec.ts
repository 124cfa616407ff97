import { ReadModelGeneration } from '../../platform/database/platform.entities';
import { ReadSide } from '../../../test/fixtures/read-side-harness';

/** The registry on a real platform database: what the runners' once-a-second watches are answered with. */
describe('ReadModelRegistry.watchedActive', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(() => side.cleanup());

  async function activeGenerations(names: string[]) {
    const platform = await side.openPlatform();
    const registry = side.registry(platform);
    for (const name of names) {
      const created = await registry.create(name, 1, new Date().toISOString());
      await registry.activate(name, 1, created.generation, new Date().toISOString());
    }
    return { platform, registry };
  }

  it('answers every read model with one query, and each with its own generation', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `model-${i}`);
    const { platform, registry } = await activeGenerations(names);
    const find = jest.spyOn(platform.getRepository(ReadModelGeneration), 'find');
    const answers = await Promise.all(names.map((name) => registry.watchedActive(name, 1)));
    expect(find).toHaveBeenCalledTimes(1);
    expect(answers.map((a) => a?.name)).toEqual(names);
    expect(answers.every((a) => a?.status === 'active')).toBe(true);
    expect(await registry.watchedActive('model-0', 2)).toBeNull();
    expect(await registry.watchedActive('unknown', 1)).toBeNull();
  });

  it("sees another process's switch once its snapshot is half a second old", async () => {
    const { registry } = await activeGenerations(['conversations']);
    expect((await registry.watchedActive('conversations', 1))?.generation).toBe(1);
    // the rebuild CLI, or another server: its own registry on its own connection
    const elsewhere = side.registry(await side.openPlatform());
    const rebuilt = await elsewhere.create('conversations', 1, new Date().toISOString());
    await elsewhere.activate('conversations', 1, rebuilt.generation, new Date().toISOString());
    await new Promise((r) => setTimeout(r, 550));
    expect((await registry.watchedActive('conversations', 1))?.generation).toBe(rebuilt.generation);
  });

  it("sees its own process's switch at once", async () => {
    const { registry } = await activeGenerations(['conversations']);
    await registry.watchedActive('conversations', 1);
    const rebuilt = await registry.create('conversations', 1, new Date().toISOString());
    await registry.activate('conversations', 1, rebuilt.generation, new Date().toISOString());
    expect((await registry.watchedActive('conversations', 1))?.generation).toBe(rebuilt.generation);
  });

  it('asks again after a failed query instead of keeping the failure', async () => {
    const { platform, registry } = await activeGenerations(['conversations']);
    const find = jest
      .spyOn(platform.getRepository(ReadModelGeneration), 'find')
      .mockRejectedValueOnce(new Error('database is locked'));
    await expect(registry.watchedActive('conversations', 1)).rejects.toThrow('database is locked');
    expect((await registry.watchedActive('conversations', 1))?.status).toBe('active');
    expect(find).toHaveBeenCalledTimes(2);
  });
});
