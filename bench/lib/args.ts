export interface BenchArgs {
  quick: boolean;
  /** Cases whose name contains any of these run; all when empty. */
  only: string[];
}

const USAGE = 'usage: npm run bench -- [--quick] [--only <substring>]...';

export function parseArgs(argv: string[]): BenchArgs {
  const args: BenchArgs = { quick: false, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--only') {
      const value = argv[++i];
      if (!value) throw new Error(`--only needs a substring\n${USAGE}`);
      args.only.push(value);
    } else if (arg.startsWith('--only=')) args.only.push(arg.slice('--only='.length));
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return args;
}
