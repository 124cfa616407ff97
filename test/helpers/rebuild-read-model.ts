import { waitUntil } from '../fixtures/counter-projection';
import type { Json } from './json';
import { op } from './keys-fixtures';
import { request, type TestApp } from './test-app';

/**
 * Rebuilds one read model through the operator API and waits, bounded, until the rebuild is done
 * and its new generation serves. Fails if the rebuild fails.
 */
export async function rebuildReadModel(t: TestApp, name: string): Promise<void> {
  const started = await request(`${t.url}/admin/v1/read-models/${name}/rebuild`, { method: 'POST', headers: op(t) });
  if (started.status !== 202) throw new Error(`rebuild of ${name} answered ${started.status}`);
  const status = async () => (await request(`${t.url}/admin/v1/read-models`, { headers: op(t) })).body;
  let job: Json = null;
  await waitUntil(
    async () => {
      job = (await status()).rebuilds.find((r: Json) => r.name === name);
      return job?.state !== 'running';
    },
    `the rebuild of ${name} to end`,
    20_000,
    100,
  );
  if (job?.state !== 'done') throw new Error(`rebuild of ${name} ended ${job?.state}: ${JSON.stringify(job)}`);
  await waitUntil(
    async () => (await status()).readModels.find((r: Json) => r.name === name).generation === job.report.generation,
    `the rebuilt ${name} generation to serve`,
    10_000,
    100,
  );
}
