import { GrowableArray } from './growable-array.js';

/**
 * Hubness reduction for vector search. Averaged word vectors (and sentence models, less so) put
 * some texts close to almost every query: in a memory these are the many near-copies of one
 * routine ("Reviewed Lukas's pull request…", "Cooked … for dinner"), which crowd out the one trace
 * that answers. CSLS (Conneau et al., "Word translation without parallel data", 2018) scores a
 * candidate by its cosine minus its own density, the mean cosine to its K nearest neighbours, so a
 * trace in a crowd of look-alikes has to match better than a trace that stands alone.
 *
 *   score = cosine − HUBNESS_WEIGHT × max(density − mean density of the user's traces, −LIFT_LIMIT)
 *
 * Centering on the mean keeps scores on the cosine scale, so cut-offs and fusion read them as
 * before.
 */

/** Neighbours a density is the mean cosine of: the few closest, so only true look-alikes count. */
export const DENSITY_K = 3;
/** Weight of the density penalty. */
export const HUBNESS_WEIGHT = 0.5;
/**
 * A trace far from every other gains at most as if its density were this far below the mean.
 * Texts of a word or two ("by the bot") are far from everything, which does not make them answers;
 * in a real memory nearly all densities lie within this distance of the mean.
 */
export const LIFT_LIMIT = 0.25;
/**
 * Densities are measured against the first DENSITY_SAMPLE rows of a user's block (all of them
 * in a smaller memory): a write then costs a bounded scan instead of one over the whole memory,
 * and a routine common enough to crowd results is common in any sample of that size.
 */
export const DENSITY_SAMPLE = 1024;

/** The K best cosines seen for each row, best first, and the score adjustment they give. */
export class NeighborDensity {
  private best = new Float32Array(0);
  private count = new Uint8Array(0);
  private readonly bestGrowth = new GrowableArray(Float32Array);
  private readonly countGrowth = new GrowableArray(Uint8Array);
  /** Per-row adjustment, rebuilt on the first search after any density changed. */
  private penalty: Float32Array | undefined;

  /** `weight` 0 turns the penalty off (plain cosine ranking). */
  constructor(readonly weight = HUBNESS_WEIGHT) {}

  resize(capacity: number): void {
    this.best = this.bestGrowth.grow(this.best, capacity * DENSITY_K);
    this.count = this.countGrowth.grow(this.count, capacity);
    this.penalty = undefined;
  }

  /** Forget a row's neighbours (it was rewritten or removed). */
  reset(row: number): void {
    this.count[row] = 0;
    this.penalty = undefined;
  }

  /**
   * Take the cosines of `row` with rows [0, n) — row s's is values[s] × scales[s] × factor (see
   * Block.dots) — skipping itself and free rows (scale 0): they become its neighbours, and when
   * `mutual`, it becomes theirs. A cosine that does not enter the row's K best is turned away
   * here, without a call (a double passed to a call that is not inlined may be boxed).
   */
  measure(row: number, values: Int32Array | Float64Array, scales: Float32Array, factor: number, n: number, mutual: boolean): void {
    this.count[row] = 0;
    const worst = row * DENSITY_K + DENSITY_K - 1;
    for (let s = 0; s < n; s++) {
      const scale = scales[s]!;
      if (s === row || scale === 0) continue;
      const c = values[s]! * scale * factor;
      if (this.count[row]! < DENSITY_K || c > this.best[worst]!) this.offer(row, c);
      if (mutual) this.offer(s, c);
    }
    this.penalty = undefined;
  }

  /** Record that `row` has a neighbour at cosine `c`; kept when among its K best. */
  private offer(row: number, c: number): void {
    const base = row * DENSITY_K;
    const n = this.count[row]!;
    if (n === DENSITY_K && c <= this.best[base + DENSITY_K - 1]!) return;
    let i = n === DENSITY_K ? DENSITY_K - 1 : n;
    while (i > 0 && this.best[base + i - 1]! < c) {
      this.best[base + i] = this.best[base + i - 1]!;
      i--;
    }
    this.best[base + i] = c;
    if (n < DENSITY_K) this.count[row] = n + 1;
  }

  /** The row's neighbour cosines as measured (best first; empty while it has none): to persist. */
  saved(row: number): Float32Array {
    return this.best.subarray(row * DENSITY_K, row * DENSITY_K + this.count[row]!);
  }

  /** Take back what saved() gave (a restart that kept the row's vector). */
  restore(row: number, best: ArrayLike<number>): void {
    const n = Math.min(best.length, DENSITY_K);
    for (let i = 0; i < n; i++) this.best[row * DENSITY_K + i] = best[i]!;
    this.count[row] = n;
    this.penalty = undefined;
  }

  /** Mean cosine of the row's nearest neighbours, or undefined while it has none. */
  private of(row: number): number | undefined {
    const n = this.count[row]!;
    if (!n) return undefined;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += this.best[row * DENSITY_K + i]!;
    return sum / n;
  }

  /**
   * What to add to each of rows [0, rows)'s similarity: −weight × max(density − mean density of
   * the live rows, −LIFT_LIMIT); 0 for a row without neighbours.
   */
  adjustments(rows: number, live: (r: number) => boolean): Float32Array {
    if (this.penalty && this.penalty.length >= rows) return this.penalty;
    const out = new Float32Array(this.count.length);
    if (!this.weight) return (this.penalty = out);
    let sum = 0;
    let n = 0;
    for (let r = 0; r < rows; r++) {
      const d = live(r) ? this.of(r) : undefined;
      if (d === undefined) continue;
      out[r] = d;
      sum += d;
      n++;
    }
    const mean = n ? sum / n : 0;
    for (let r = 0; r < rows; r++) out[r] = this.count[r] && live(r) ? -this.weight * Math.max(out[r]! - mean, -LIFT_LIMIT) : 0;
    return (this.penalty = out);
  }
}
