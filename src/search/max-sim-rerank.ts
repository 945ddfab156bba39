import type { VectorHit } from './indexes/vector-index.js';

/**
 * The best hits of the vector scan that max-sim scores again (models/max-sim.ts): deep enough
 * that an answer the pooled vector ranks in the dozens comes up, small enough that a query reads
 * only a hundred texts, whatever the size of the memory.
 */
export const RERANK_DEPTH = 100;
/** Max-sim's share of a rescored hit's score; the rest is the scan's similarity. */
export const MAX_SIM_WEIGHT = 0.3;

/**
 * The scan's hits (best first) with the first `maxSim.length` of them rescored, each the blend
 * of its similarity and its max-sim score, and the rest moved down as one so that none of them
 * passes a rescored hit (their order kept). `rescore` gives any trace's score on that same
 * scale, from its plain similarity (for hybrid's literal matches the scan did not return).
 */
export function blendMaxSim(hits: VectorHit[], maxSim: Float32Array): { hits: VectorHit[]; rescore: (uid: string, plain: number) => number } {
  const n = Math.min(maxSim.length, hits.length);
  const head = hits.slice(0, n).map((h, i) => ({ uid: h.uid, score: (1 - MAX_SIM_WEIGHT) * h.score + MAX_SIM_WEIGHT * maxSim[i]! }));
  head.sort((a, b) => b.score - a.score || (a.uid < b.uid ? -1 : 1));
  const floor = head.at(-1)?.score ?? 0;
  const shift = n && n < hits.length ? Math.max(0, hits[n]!.score - floor) : 0;
  const rescored = new Map(head.map((h) => [h.uid, h.score]));
  return {
    hits: [...head, ...hits.slice(n).map((h) => ({ uid: h.uid, score: h.score - shift }))],
    rescore: (uid, plain) => rescored.get(uid) ?? plain - shift,
  };
}
