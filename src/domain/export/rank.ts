import type { StoredTrace } from '../../contracts/memory.js';
import { BoundedBest, topK } from '../../platform/top-k.js';

const DAY_MS = 86_400_000;
/** A trace this many days older than the newest one has lost half its recency bonus. */
const HALF_LIFE_DAYS = 7;
/** The most recency can add: a fresh importance-3 trace outranks an old importance-4 one, not a 5. */
const RECENCY_WEIGHT = 1.5;

export interface Ranked {
  trace: StoredTrace;
  score: number;
}

/** A position in summary order, as carried by a cursor: `[score, timestamp, uid]`. */
export type RankedKey = [number, string, string];

/** Best first: score, then the newer trace, then uid for a total order. */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.trace.timestamp !== b.trace.timestamp) return a.trace.timestamp > b.trace.timestamp ? -1 : 1;
  return a.trace.uid < b.trace.uid ? -1 : a.trace.uid > b.trace.uid ? 1 : 0;
}

export const rankedKey = (r: Ranked): RankedKey => [r.score, r.trace.timestamp, r.trace.uid];

/** Newer first, then uid: summary order among traces of equal importance. */
function newerFirst(a: StoredTrace, b: StoredTrace): number {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp ? -1 : 1;
  return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}

/**
 * The first `k` traces in summary order after the position `after` (or from the start). Summary
 * order is importance (1–5) plus a recency bonus that halves every week, measured from the newest
 * trace (not the wall clock, so the order and the cursors built on it change only when memory
 * does); ties go to the newer trace, then the uid.
 *
 * Within one importance the order is simply newest first, so each importance contributes its
 * newest `k` candidates by string comparison, and only those are scored: at 100k traces this
 * parses a few hundred dates instead of every one.
 */
export function rankPage(traces: readonly StoredTrace[], k: number, after?: RankedKey): Ranked[] {
  let newestTs = '';
  const newestMs = () => {
    if (!newestTs) for (const t of traces) if (t.timestamp > newestTs) newestTs = t.timestamp;
    return Date.parse(newestTs);
  };
  const rank = (trace: StoredTrace, newest: number): Ranked => {
    const ageDays = (newest - Date.parse(trace.timestamp)) / DAY_MS;
    const score = (trace.importance ?? 3) + RECENCY_WEIGHT * 0.5 ** (ageDays / HALF_LIFE_DAYS);
    // Rounded so the score survives a trip through a JSON cursor bit for bit.
    return { trace, score: Math.round(score * 1e9) / 1e9 };
  };
  let isAfter: ((t: StoredTrace) => boolean) | undefined;
  if (after) {
    const newest = newestMs();
    const pos = { score: after[0], trace: { timestamp: after[1], uid: after[2] } as StoredTrace };
    isAfter = (t) => compareRanked(rank(t, newest), pos) > 0;
  }
  const levels = new Map<number, BoundedBest<StoredTrace>>();
  // Memory is mostly stored oldest first: walking it backwards meets the newest first, so the
  // rest is rejected with one comparison each and `isAfter` (which parses dates) runs rarely.
  for (let i = traces.length - 1; i >= 0; i--) {
    const t = traces[i]!;
    if (t.timestamp > newestTs) newestTs = t.timestamp;
    const imp = t.importance ?? 3;
    let best = levels.get(imp);
    if (!best) levels.set(imp, (best = new BoundedBest(k, newerFirst, isAfter)));
    best.offer(t);
  }
  const newest = newestMs();
  const candidates: Ranked[] = [];
  for (const best of levels.values()) for (const t of best.sorted()) candidates.push(rank(t, newest));
  return topK(candidates, k, compareRanked);
}
