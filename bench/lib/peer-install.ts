import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from './paths';

/**
 * The peer (Emmett's SQLite store) lives in bench/peer with its own package.json, out of the
 * main install: its sqlite3 addon compiles from source (minutes) and nothing but the bench uses
 * it. The bench installs it on first run and loads it with a require rooted in that folder.
 * Emmett's PostgreSQL store, the postgres.* cases' peer, has a folder of its own, bench/peer/postgres:
 * the registry holds no emmett-postgresql 0.38.5, and its 0.42.0 wants emmett 0.42.0 beside it,
 * which cannot share a node_modules with emmett-sqlite's emmett 0.38.5.
 */
const PEER_DIR = path.join(repoRoot(), 'bench', 'peer');
const POSTGRES_PEER_DIR = path.join(PEER_DIR, 'postgres');

/** Only the parts of the peer's API the bench calls (its .d.ts lives in bench/peer/node_modules). */
export interface PeerEvent {
  type: string;
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface PeerEventStore {
  appendToStream(
    streamName: string,
    events: PeerEvent[],
  ): Promise<{ nextExpectedStreamVersion: bigint; lastEventGlobalPosition: bigint }>;
}

interface PeerConnection {
  close(): void;
}

export interface PeerModule {
  getSQLiteEventStore(options: { fileName: string }): PeerEventStore;
  sqliteConnection(options: { fileName: string }): PeerConnection;
  readMessagesBatch(
    connection: PeerConnection,
    options: { after: bigint; batchSize: number } | { from: bigint; batchSize: number },
  ): Promise<{ currentGlobalPosition: bigint; messages: unknown[]; areEventsLeft: boolean }>;
}

/** The part of Emmett's PostgreSQL store the bench calls. */
export interface PostgresPeerStore {
  appendToStream(streamName: string, events: PeerEvent[]): Promise<unknown>;
  close(): Promise<void>;
}

interface PostgresPeerModule {
  getPostgreSQLEventStore(connectionString: string): PostgresPeerStore;
  /**
   * Ends every pool Emmett's dumbo keeps. Its pools are shared by connection string and counted per
   * use, and a store's close() can leave one open; an idle client of it then dies when its
   * database is dropped, and an 'error' nobody listens to ends the bench.
   */
  endAllPools(): Promise<unknown>;
}

// npm's output goes to stderr: stdout carries only the table.
function npm(args: string[], log: (line: string) => void): boolean {
  log(`npm ${args.join(' ')}`);
  const result = spawnSync('npm', args, { cwd: repoRoot(), stdio: ['ignore', 2, 2], timeout: 15 * 60_000 });
  return result.status === 0;
}

function sqliteLoads(): boolean {
  try {
    createRequire(path.join(PEER_DIR, 'package.json'))('sqlite3');
    return true;
  } catch {
    return false;
  }
}

/** Installs the peer when bench/peer/node_modules is missing; the error when it cannot be loaded. */
export function loadPeer(log: (line: string) => void): PeerModule | Error {
  try {
    if (!fs.existsSync(path.join(PEER_DIR, 'node_modules'))) {
      log('installing the peer into bench/peer (first run; sqlite3 compiles from source, ~3 min)');
      npm(['install', '--prefix', PEER_DIR, '--no-audit', '--no-fund'], log);
    }
    // npm 11 may skip install scripts (allowScripts) and leave sqlite3 without its addon.
    if (!sqliteLoads()) npm(['rebuild', 'sqlite3', '--prefix', PEER_DIR], log);
    return createRequire(path.join(PEER_DIR, 'package.json'))('@event-driven-io/emmett-sqlite') as PeerModule;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Installs Emmett's PostgreSQL store into bench/peer/postgres when missing (seconds: no addon); the error when it cannot be loaded. */
export function loadPostgresPeer(log: (line: string) => void): PostgresPeerModule | Error {
  try {
    if (!fs.existsSync(path.join(POSTGRES_PEER_DIR, 'node_modules'))) {
      log('installing the PostgreSQL peer into bench/peer/postgres (first run)');
      npm(['install', '--prefix', POSTGRES_PEER_DIR, '--no-audit', '--no-fund'], log);
    }
    const load = createRequire(path.join(POSTGRES_PEER_DIR, 'package.json'));
    const emmett = load('@event-driven-io/emmett-postgresql') as Pick<PostgresPeerModule, 'getPostgreSQLEventStore'>;
    const dumbo = load('@event-driven-io/dumbo') as Pick<PostgresPeerModule, 'endAllPools'>;
    return { getPostgreSQLEventStore: emmett.getPostgreSQLEventStore, endAllPools: dumbo.endAllPools };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
