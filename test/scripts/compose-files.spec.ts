import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * No Docker engine runs here, so `docker compose up` never checks the two scaled sets: this reads
 * them as data instead and checks what would otherwise fail only on someone's machine. Services
 * wait on health checks that exist, the API processes set only variables the config reads (a
 * renamed setting fails here), each file's event store is the one it claims, and deploy/nginx.conf
 * balances over services the file has.
 */

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
  volumes?: string[];
}

interface ComposeFile {
  services: Record<string, Service>;
}

/** Compose files use YAML 1.1 merge keys (`<<: *api`), which YAML 1.2 parsers apply only when asked. */
const load = (file: string) => parse(read(file), { merge: true }) as ComposeFile;

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.slice(entry.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)]));
}

const dependencies = (service: Service) =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});

/** `${VAR:-default}` as compose reads it with VAR unset, so a URL's host can be read. */
const withDefaults = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1');

/** The hosts of a connection string, `esdb+discover://a:2113,b:2113?tls=false` included. */
function hosts(url: string): string[] {
  const authority = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]+)/i.exec(withDefaults(url));
  if (!authority) throw new Error(`not a URL: ${url}`);
  return authority[1].split(',').map((hostPort) => hostPort.replace(/:\d+$/, ''));
}

/**
 * Every variable name src/platform/config/config.ts reads: `env.NAME`, and the literals handed to its
 * readers (`integer(env, 'NAME', …)`, oneOf, decimal, flag, and the edge's `seconds('NAME', …)`).
 */
function namesTheConfigReads(): Set<string> {
  const source = read('src/platform/config/config.ts');
  const reads =
    /\benv\.([A-Z][A-Z0-9_]*)|\b(?:oneOf|integer|decimal|flag)\(env, '([A-Z][A-Z0-9_]*)'|\bseconds\('([A-Z][A-Z0-9_]*)'/g;
  return new Set([...source.matchAll(reads)].map((m) => m[1] ?? m[2] ?? m[3]));
}

/** The `server host:port` lines of nginx.conf's upstream blocks. */
function upstreamServers(conf: string): Array<{ host: string; port: string }> {
  const blocks = [...conf.matchAll(/upstream\s+\w+\s*\{([^}]*)\}/g)].map((m) => m[1]);
  return blocks.flatMap((block) =>
    [...block.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => ({ host: m[1], port: m[2] })),
  );
}

const isEventStoreDb = (service: Service) => /eventstore|kurrent/i.test(service.image ?? '');

describe('the config reads what the compose files are checked against', () => {
  it('finds the names config.ts reads, through each kind of reader', () => {
    const names = namesTheConfigReads();
    // one of each pattern: env.X, oneOf, integer, decimal, flag, seconds
    for (const name of [
      'DATABASE_URL',
      'EVENT_STORE',
      'PORT',
      'AUTH_FAILURE_RATE',
      'METRICS_PUBLIC',
      'HTTP_HEADERS_TIMEOUT_S',
    ])
      expect(names).toContain(name);
    expect(names).not.toContain('EVENTSTORE_URL');
  });
});

describe.each([
  { file: 'docker-compose.yml', eventStore: 'eventstoredb' },
  { file: 'docker-compose.postgres.yml', eventStore: 'postgres' },
])('$file', ({ file, eventStore }) => {
  const { services } = load(file);
  // the services built from this repository's Dockerfile are the API processes
  const apis = Object.entries(services).filter(([, service]) => service.build !== undefined);

  it('has two API processes or more', () => {
    expect(apis.length).toBeGreaterThanOrEqual(2);
  });

  it('waits only on services that exist and have a health check', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of dependencies(service)) {
        expect({ service: name, dependency, exists: dependency in services }).toEqual({
          service: name,
          dependency,
          exists: true,
        });
        expect({ dependency, healthcheck: services[dependency].healthcheck?.test !== undefined }).toEqual({
          dependency,
          healthcheck: true,
        });
      }
    }
  });

  it('checks each API process on /readyz, and starts it once what it needs is healthy', () => {
    for (const [name, api] of apis) {
      expect({ name, test: [api.healthcheck?.test ?? []].flat().join(' ') }).toEqual({
        name,
        test: expect.stringContaining('/readyz'),
      });
      expect(Array.isArray(api.depends_on)).toBe(false);
      const conditions = Object.values(api.depends_on ?? {}).map((d: { condition?: string }) => d.condition);
      expect(conditions.length).toBeGreaterThan(0);
      expect(new Set(conditions)).toEqual(new Set(['service_healthy']));
    }
  });

  it('sets on the API processes only variables the config reads', () => {
    const known = namesTheConfigReads();
    for (const [name, api] of apis) {
      const unknown = Object.keys(environment(api)).filter((variable) => !known.has(variable));
      expect({ name, unknown }).toEqual({ name, unknown: [] });
    }
  });

  it('gives every API process the same operator token and server secret', () => {
    for (const variable of ['OPERATOR_TOKEN', 'SERVER_SECRET']) {
      const values = new Set(apis.map(([, api]) => environment(api)[variable]));
      expect({ variable, values: [...values] }).toEqual({ variable, values: [expect.any(String)] });
    }
  });

  it(`keeps the log in ${eventStore}, and read models in PostgreSQL, on services of the file`, () => {
    for (const [, api] of apis) {
      const env = environment(api);
      expect(env.EVENT_STORE).toBe(eventStore);
      expect(env.READ_MODEL_DB).toBe('postgres');
      for (const host of hosts(env.DATABASE_URL)) expect(Object.keys(services)).toContain(host);
      if (eventStore === 'eventstoredb') {
        const cluster = hosts(env.EVENTSTORE_CONNECTION_STRING);
        expect(cluster.length).toBeGreaterThan(0);
        for (const host of cluster) expect(isEventStoreDb(services[host] ?? {})).toBe(true);
      } else {
        // the log's database: EVENT_STORE_URL, or DATABASE_URL's when unset (config.ts eventStoreUrl)
        const url = env.EVENT_STORE_URL ?? env.DATABASE_URL;
        for (const host of hosts(url)) expect(services[host]?.image).toMatch(/^postgres:/);
        expect(env.EVENTSTORE_CONNECTION_STRING).toBeUndefined();
      }
    }
    if (eventStore === 'postgres') {
      const esdb = Object.keys(services).filter((name) => /^esdb/.test(name) || isEventStoreDb(services[name]));
      expect(esdb).toEqual([]);
    }
  });

  it('balances, through deploy/nginx.conf, over exactly its API processes on their port', () => {
    const lb = Object.values(services).find((service) =>
      service.volumes?.some((v) => v.startsWith('./deploy/nginx.conf:')),
    );
    expect(lb).toBeDefined();
    const upstream = upstreamServers(read('deploy/nginx.conf'));
    expect(upstream.map((server) => server.host).sort()).toEqual(apis.map(([name]) => name).sort());
    for (const server of upstream) expect(environment(services[server.host]).PORT).toBe(server.port);
  });

  it("believes X-Forwarded-For from the load balancer's fixed address", () => {
    const lb = Object.values(services).find((service) =>
      service.volumes?.some((v) => v.startsWith('./deploy/nginx.conf:')),
    );
    const networks = lb?.networks && !Array.isArray(lb.networks) ? lb.networks : {};
    const address = Object.values(networks).find((network) => network?.ipv4_address)?.ipv4_address;
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const [, api] of apis)
      expect(
        environment(api)
          .TRUSTED_PROXIES.split(',')
          .map((s) => s.trim()),
      ).toContain(address);
  });
});
