export interface BenchArgs {
  quick: boolean;
  /** Cases whose name contains any of these run; all when empty. */
  only: string[];
  /**
   * `postgres`: also run the PostgreSQL cases beside their SQLite counterparts. Implied by an
   * `--only` that names postgres (every such case's name starts `postgres.`) unless --backend is given.
   */
  backend: 'sqlite' | 'postgres';
  /** Internal: run this one case group and write its outcomes to `out` (run.ts spawns these). */
  group?: string;
  out?: string;
}

const USAGE = 'usage: npm run bench -- [--quick] [--backend sqlite|postgres] [--only <substring>|=<name>]...';

export function parseArgs(argv: string[]): BenchArgs {
  const args: BenchArgs = { quick: false, only: [], backend: 'sqlite' };
  let backendGiven = false;
  const value = (i: number, flag: string) => {
    const v = argv[i];
    if (!v) throw new Error(`${flag} needs a value\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--only') args.only.push(value(++i, '--only'));
    else if (arg.startsWith('--only=')) args.only.push(arg.slice('--only='.length));
    else if (arg === '--backend' || arg.startsWith('--backend=')) {
      const backend = arg === '--backend' ? value(++i, '--backend') : arg.slice('--backend='.length);
      if (backend !== 'sqlite' && backend !== 'postgres')
        throw new Error(`--backend is sqlite or postgres, not ${backend}\n${USAGE}`);
      args.backend = backend;
      backendGiven = true;
    } else if (arg === '--group') args.group = value(++i, '--group');
    else if (arg === '--out') args.out = value(++i, '--out');
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  if (!backendGiven && args.only.some((s) => s.includes('postgres'))) args.backend = 'postgres';
  return args;
}
