import path from 'node:path';
import { seed } from './seed';
import { makeDataDirPrivate } from '../../platform/database/private-data-dir';

const USAGE =
  'usage: npm run seed -- --conversations N [--agents 1..3] [--days 90] [--seed 1] [--concurrency 256] [--live-share 0.8] [--data-dir DIR]';

function parse(argv: string[]) {
  const options: {
    conversations: number;
    agents: number;
    days: number;
    seed: number;
    concurrency: number;
    dataDir: string;
    liveShare?: number;
  } = {
    conversations: 1000,
    agents: 3,
    days: 90,
    seed: 1,
    concurrency: 256,
    dataDir: process.env.DATA_DIR || './data',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    const number = Number(value);
    switch (flag) {
      case '--conversations':
      case '--agents':
      case '--days':
      case '--seed':
      case '--concurrency': {
        const name = flag.slice(2) as 'conversations' | 'agents' | 'days' | 'seed' | 'concurrency';
        if (!Number.isInteger(number) || number < (name === 'conversations' ? 0 : 1))
          throw new Error(`${flag} needs a whole number\n${USAGE}`);
        options[name] = number;
        break;
      }
      case '--live-share':
        if (!(number >= 0 && number <= 1)) throw new Error(`--live-share needs a number from 0 to 1\n${USAGE}`);
        options.liveShare = number;
        break;
      case '--data-dir':
        if (!value) throw new Error(`--data-dir needs a directory\n${USAGE}`);
        options.dataDir = value;
        break;
      case '--help':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const dataDir = path.resolve(options.dataDir);
  makeDataDirPrivate(dataDir);
  const log = (line: string) => process.stderr.write(`seed: ${line}\n`);
  log(`${options.conversations.toLocaleString('en-US')} conversations into ${dataDir}`);
  const result = await seed({ ...options, dataDir, log });
  console.log(`account  ${result.accountId}`);
  for (const agent of result.agents) console.log(`agent    ${agent.agentId}  ${agent.name}`);
  for (const key of result.keys) console.log(`key      ${key.key}  (${key.name})`);
  console.log(
    `seeded   ${result.conversations.toLocaleString('en-US')} conversations (${result.commands.toLocaleString('en-US')} commands) in ${result.seconds.toFixed(1)} s; read models caught up ${result.projectionSeconds.toFixed(1)} s later`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
