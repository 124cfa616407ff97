import { newTestEvent } from '../../src/event-store/event-store.contract';
import { INCREMENTED, appendCounterEvents, counterProjection, sleep } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';

it('empty log', async () => {
  const side = new ReadSide();
  const { readModels } = await side.startReadModels([counterProjection()]);
  await sleep(1500);
  console.log('empty', (await readModels.status())[0]);
  await side.cleanup();
});

it('dirty read', async () => {
  const side = new ReadSide();
  const store = await side.openStore();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let blocked = false;
  const { readModels } = await side.startReadModels([counterProjection({ before: async (e) => { if ((e.data as any).block) { blocked = true; await gate; throw new Error('boom'); } } })], { store });
  await store.append('x', [newTestEvent(INCREMENTED, { by: 1 })]);
  await readModels.waitFor(await store.headPosition(), ['counters']);
  await store.append('y', [newTestEvent(INCREMENTED, { by: 1 }), newTestEvent(INCREMENTED, { by: 1, block: true })]);
  while (!blocked) await sleep(1);
  console.log('during', await readModels.source('counters').query('SELECT * FROM counter'));
  release();
  await sleep(50);
  console.log('state', (await readModels.status())[0]);
  await sleep(1200);
  console.log('after', (await readModels.status())[0]);
  await side.cleanup();
});
