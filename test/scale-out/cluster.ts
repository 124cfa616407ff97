import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppProcess } from '../helpers/app-process';
import { request } from '../helpers/test-app';
import { eventually } from '../helpers/conversations-fixture';
import { startPostgresServer, type PostgresBinaries, type PostgresServer } from '../support/postgres-server';

/**
 * The scaled set as a team would run it, on loopback: one PostgreSQL holding the log
 * (EVENT_STORE=postgres), the read models and the platform records (READ_MODEL_DB=postgres), and
 * several Parley processes on it, each with a DATA_DIR of its own as if on its own machine, the
 * secrets the same everywhere.
 */
export interface Cluster {
  server: PostgresServer;
  /** the database every member shares */
  readonly url: string;
  /** index i is member i; a killed member stays in place until `restart(i)` */
  members: AppProcess[];
  env(i: number): Record<string, string> & { DATA_DIR: string; OPERATOR_TOKEN: string };
  /** Starts member i again on its own DATA_DIR (a machine coming back), once it answers /readyz. */
  restart(i: number): Promise<AppProcess>;
  /** Every member started again on a new, empty database (a fresh cluster without a new server). */
  fresh(): Promise<void>;
  stop(): Promise<void>;
}

const OPERATOR_TOKEN = 'cluster-operator-token-0123456789abcdef';

export async function startCluster(
  binaries: PostgresBinaries,
  size: number,
  extra: Record<string, string> = {},
): Promise<Cluster> {
  const server = await startPostgresServer(binaries, 'parley_cluster');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cluster-'));
  const members: AppProcess[] = [];
  let url = server.url;
  let databases = 0;
  const env = (i: number) => ({
    DATA_DIR: path.join(root, `member-${i}`),
    OPERATOR_TOKEN,
    SERVER_SECRET: 'cluster-server-secret-0123456789abcdef0123456789',
    EVENT_STORE: 'postgres',
    READ_MODEL_DB: 'postgres',
    DATABASE_URL: url,
    DEBUG_CHAT_TIMEOUT_S: '86400',
    RATE_LIMIT_PER_KEY: '0',
    BODY_BYTES_PER_S: '0',
    ...extra,
  });
  const startAll = async () => {
    // one after another: the first creates the schemas, and two compiling children at once on a
    // small machine take longer than one after the other
    for (let i = 0; i < size; i++) members[i] = await AppProcess.start(env(i));
    await Promise.all(members.map(ready));
  };
  const cluster: Cluster = {
    server,
    get url() {
      return url;
    },
    members,
    env,
    async restart(i) {
      members[i] = await AppProcess.start(env(i));
      await ready(members[i]);
      return members[i];
    },
    async fresh() {
      await Promise.all(members.map((m) => m.stop()));
      url = await server.createDatabase(`parley_cluster_${++databases}`);
      fs.rmSync(root, { recursive: true, force: true });
      await startAll();
    },
    async stop() {
      await Promise.all(members.map((m) => m.stop()));
      await server.stop();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await startAll();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** As a load balancer would: traffic once the member says it is ready. */
async function ready(member: AppProcess): Promise<void> {
  await eventually(async () => expect((await request(`${member.t.url}/readyz`)).status).toBe(200), 30_000, 100);
}
