import { NONE, type Split } from './eval-set';

/** What the runtime did with one question. */
export interface Outcome {
  agent: string;
  /** The question as asked. */
  q: string;
  split: Split;
  /** The labelled topic id, or NONE. */
  label: string;
  /** The topic the runtime answered from at its own threshold, or NONE. */
  cited: string;
  /** The best retrieved topic whatever its confidence, or NONE when nothing matched. */
  top: string;
  /** That topic's confidence (0 when nothing matched). */
  confidence: number;
}

export interface Metrics {
  questions: number;
  inDomain: number;
  outOfDomain: number;
  /** In-domain questions answered from their labelled topic. */
  top1: number;
  /** In-domain questions whose best retrieved topic is the labelled one, threshold aside. */
  retrievalTop1: number;
  /** Of the questions answered "none", the share labelled none (0 when none were, unless none were labelled so). */
  oodPrecision: number;
  /** Of the questions labelled none, the share answered "none" (1 when none were). */
  oodRecall: number;
  /** Questions answered right, in-domain and out-of-domain together. */
  accuracy: number;
}

const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

/** The answer at a threshold: what the runtime cites when it compares the best hit's confidence. */
export function answerAt(o: Outcome, threshold: number): string {
  return o.top !== NONE && o.confidence >= threshold ? o.top : NONE;
}

/** Metrics of `outcomes`, answered by `answer` (by default what the runtime cited). */
export function metricsOf(outcomes: readonly Outcome[], answer: (o: Outcome) => string = (o) => o.cited): Metrics {
  let inDomain = 0;
  let top1 = 0;
  let retrievalTop1 = 0;
  let answeredNone = 0;
  let rightNone = 0;
  let labelledNone = 0;
  for (const o of outcomes) {
    const given = answer(o);
    if (given === NONE) answeredNone++;
    if (o.label === NONE) {
      labelledNone++;
      if (given === NONE) rightNone++;
    } else {
      inDomain++;
      if (given === o.label) top1++;
      if (o.top === o.label) retrievalTop1++;
    }
  }
  return {
    questions: outcomes.length,
    inDomain,
    outOfDomain: labelledNone,
    top1: share(top1, inDomain),
    retrievalTop1: share(retrievalTop1, inDomain),
    // Refusing nothing is no precision at all when there were questions to refuse.
    oodPrecision: answeredNone === 0 ? (labelledNone === 0 ? 1 : 0) : rightNone / answeredNone,
    oodRecall: share(rightNone, labelledNone),
    accuracy: share(top1 + rightNone, outcomes.length),
  };
}

export interface SweepPoint {
  threshold: number;
  metrics: Metrics;
}

/**
 * Every threshold from 0 to 1 in steps of 0.01; the best is the one answering the most questions
 * right overall (a refusal of an out-of-domain question counts as right), ties to the lower threshold.
 */
export function sweep(outcomes: readonly Outcome[]): { points: SweepPoint[]; best: SweepPoint } {
  const points: SweepPoint[] = [];
  for (let step = 0; step <= 100; step++) {
    const threshold = step / 100;
    points.push({ threshold, metrics: metricsOf(outcomes, (o) => answerAt(o, threshold)) });
  }
  let best = points[0];
  for (const p of points) if (p.metrics.accuracy > best.metrics.accuracy) best = p;
  return { points, best };
}
