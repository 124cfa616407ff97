import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { median } from '../lib/measure';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import { TopicIndex } from '../../src/runtime/retrieval/topic-index';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * The embedded runtime's topic retrieval (src/runtime/retrieval): one index built over a synthetic
 * knowledge base (Zipf-distributed words; 50–150 words of content and 3–10 example queries per topic),
 * then varied queries (example queries, misspellings, long rambling ones, out-of-domain ones) timed
 * one by one after a warm-up. Each run times every query once; the figure is the median of the runs' p50.
 */
async function retrievalLatency(ctx: BenchContext) {
  const topics = ctx.quick ? 1000 : 5000;
  const queries = ctx.quick ? 500 : 2000;
  const kb = syntheticKnowledgeBase(topics, queries + 500);
  const buildMs: number[] = [];
  const cold = performance.now();
  let index = TopicIndex.build(kb.topics);
  const coldBuildMs = performance.now() - cold;
  for (let b = 0; b < (ctx.quick ? 1 : 3); b++) {
    const t = performance.now();
    index = TopicIndex.build(kb.topics);
    buildMs.push(performance.now() - t);
  }
  const warmUp = kb.queries.slice(queries);
  for (const q of warmUp) index.search(q);
  const timed = kb.queries.slice(0, queries);

  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let run = 0; run < ctx.sizes.runs; run++) {
    const samples: number[] = [];
    for (const q of timed) {
      const t = performance.now();
      index.search(q);
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    p50s.push(percentile(samples, 0.5));
    p99s.push(percentile(samples, 0.99));
    ctx.log(
      `retrieval run ${run + 1}: p50 ${p50s[run].toFixed(3)} ms, p99 ${p99s[run].toFixed(3)} ms over ${timed.length} queries`,
    );
  }
  return {
    topics,
    queries,
    p50: median(p50s),
    p99: median(p99s),
    p50s,
    p99s,
    buildMs: median(buildMs),
    buildRuns: buildMs,
    coldBuildMs,
  };
}

export const retrievalCases: BenchCase[] = [
  {
    name: 'runtime.retrieval.5000-topics.p50',
    async run(ctx) {
      const r = await retrievalLatency(ctx);
      return {
        figure: r.p50,
        unit: 'ms',
        runs: r.p50s,
        note: `one query against ${r.topics} topics (BM25F + stemming + fuzzy), ${r.queries} varied queries per run; p99 ${r.p99.toFixed(3)} ms; index build ${r.buildMs.toFixed(0)} ms (first, cold JIT: ${r.coldBuildMs.toFixed(0)} ms)`,
        details: {
          topics: r.topics,
          queries: r.queries,
          p99Ms: r.p99,
          p99Runs: r.p99s,
          buildMs: r.buildMs,
          buildRuns: r.buildRuns,
          coldBuildMs: r.coldBuildMs,
        },
      };
    },
  },
  {
    name: 'runtime.retrieval.memory-added',
    run() {
      // a fresh process: what the GloVe neighbour lists (issue 54) add once loaded, heap and
      // buffers, after a full collection on both sides; the thesaurus (issue 35) loaded first
      const dir = path.join(__dirname, '..', '..', 'src', 'runtime', 'retrieval');
      const script = `
        const used = () => { global.gc(); const m = process.memoryUsage(); return m.heapUsed + m.external + m.arrayBuffers; };
        const before = used();
        require(${JSON.stringify(path.join(dir, 'thesaurus'))}).thesaurus();
        const between = used();
        require(${JSON.stringify(path.join(dir, 'word-neighbours'))}).loadWordNeighbours();
        process.stdout.write(JSON.stringify([between - before, used() - between]));`;
      const [thesaurus, neighbours] = JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }),
      ) as [number, number];
      return Promise.resolve({
        figure: neighbours / 1e6,
        unit: 'MB',
        note: `heap, external and array buffers a fresh process holds once the GloVe neighbour lists are loaded (the thesaurus, loaded before, holds ${(thesaurus / 1e6).toFixed(1)} MB)`,
      });
    },
  },
];
