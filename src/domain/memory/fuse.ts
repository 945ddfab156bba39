import type { KeywordHit } from './search-port.js';

export interface FusedHit {
  uid: string;
  score: number;
  keyword: number;
  semantic: number;
}

/**
 * Weight of the keyword side in the fused score. Below one half on purpose: a literal match of a
 * few of the query's words is common among unrelated traces (the "knee-high socks" of a knee
 * question), while the keyword side still decides between traces of similar meaning.
 */
export const KEYWORD_WEIGHT = 0.35;

/**
 * Semantic hits below this share of the best hit's cosine are left out. Sentence vectors make
 * every trace somewhat similar to every query (unrelated ones score 0.3–0.6); without a cut a
 * search for "zucchini" would list the whole memory. Traces that answer a query score within
 * about 20% of the best one.
 */
export const SEMANTIC_RELATIVE_FLOOR = 0.7;

/**
 * A trace is lifted this share of the way towards the best score among its neighbours: the
 * traces at most NEIGHBOUR_SPAN places before or after it in its task's time order. In a
 * conversation the turn that answers a question often shares neither its words nor its meaning
 * with it, while the turn just before it (the one the question restates) does. Only a neighbour
 * that scores higher lifts: two look-alike notes side by side do not raise each other.
 */
export const NEIGHBOUR_WEIGHT = 0.4;
export const NEIGHBOUR_SPAN = 2;

/** Which traces are next to a trace in its task's time order (KeywordSearchPort.neighbours). */
export type Neighbours = (uid: string, span: number) => string[];

/** The semantic hits worth showing: positive and close enough to the best one. */
export function semanticCut<T extends { score: number }>(hits: T[]): T[] {
  const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
  return hits.filter((h) => h.score > 0 && h.score >= SEMANTIC_RELATIVE_FLOOR * best);
}

/** Semantic mode's ranking: each hit lifted towards its neighbours, then the cut, best first. */
export function semanticRanking(hits: { uid: string; score: number }[], neighbours?: Neighbours): { uid: string; score: number }[] {
  const out = hits.map((h) => ({ uid: h.uid, score: h.score }));
  if (neighbours) {
    liftByNeighbours(out, neighbours);
    out.sort((a, b) => b.score - a.score || (a.uid < b.uid ? -1 : 1));
  }
  return semanticCut(out);
}

/**
 * Hybrid ranking: one confidence in [0,1] per trace,
 *   KEYWORD_WEIGHT × coverage² × BM25 / best BM25  +  (1 − KEYWORD_WEIGHT) × max(0, similarity).
 * Scaling BM25 by the squared coverage makes a trace that matches every content word of the
 * query count fully, one that matches one word of three barely: such partial matches are what a
 * paraphrased question produces by chance, often across a whole crowd of routine traces ("when
 * did my bicycle need fixing" against every "…it badly needs structured logging"). Without a semantic signal (no word of the
 * query is known to the model) the keyword part alone is the score. Semantic-only candidates pass
 * through semanticCut; literal matches are always kept.
 */
export function fuseHybrid(
  keyword: KeywordHit[],
  semantic: { uid: string; score: number }[],
  similarity: (uid: string) => number | undefined,
  neighbours?: Neighbours,
): FusedHit[] {
  const topBm25 = keyword.reduce((m, h) => Math.max(m, h.score), 0) || 1;
  const kw = new Map(keyword.map((h) => [h.uid, (h.coverage ** 2 * h.score) / topBm25]));
  const sem = new Map(semanticCut(semantic).map((h) => [h.uid, h.score]));
  for (const uid of kw.keys()) if (!sem.has(uid)) sem.set(uid, Math.max(0, similarity(uid) ?? 0));
  const wk = semantic.length > 0 ? KEYWORD_WEIGHT : 1;
  const out: FusedHit[] = [];
  for (const uid of new Set([...kw.keys(), ...sem.keys()])) {
    const k = kw.get(uid) ?? 0;
    const s = sem.get(uid) ?? 0;
    out.push({ uid, keyword: k, semantic: s, score: Math.min(1, Math.max(0, wk * k + (1 - wk) * s)) });
  }
  if (neighbours) liftByNeighbours(out, neighbours);
  out.sort((a, b) => b.score - a.score || (a.uid < b.uid ? -1 : 1));
  // Traces found by meaning alone face the same cut against the best fused score: next to a
  // trace that matches the query literally and in meaning, the merely "somewhat similar" are
  // noise. Literal matches always stay.
  const best = out[0]?.score ?? 0;
  return out.filter((h) => kw.has(h.uid) || h.score >= SEMANTIC_RELATIVE_FLOOR * best);
}

/**
 * Lift each hit NEIGHBOUR_WEIGHT of the way towards the best score among its neighbours (other
 * hits; a neighbour that is not a hit counts 0), in place; the caller sorts again.
 */
function liftByNeighbours(hits: { uid: string; score: number }[], neighbours: Neighbours): void {
  const own = new Map(hits.map((h) => [h.uid, h.score]));
  for (const h of hits) {
    let best = 0;
    for (const n of neighbours(h.uid, NEIGHBOUR_SPAN)) best = Math.max(best, own.get(n) ?? 0);
    if (best > h.score) h.score += NEIGHBOUR_WEIGHT * (best - h.score);
  }
}
