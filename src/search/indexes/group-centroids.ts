import { GrowableArray } from './growable-array.js';

/**
 * Cluster-based smoothing (Liu and Croft, "Cluster-based retrieval using language models",
 * 2004): a trace is scored partly by how well the query matches its whole group, for memory
 * traces their task. One short trace rarely shares words or meaning with a question phrased
 * differently ("bachelorette getaway accommodation" against "Booked the cabin near Wernigerode"),
 * but its task's other traces (bridesmaids, the wedding, the toast) together usually do:
 *
 *   score = (1 − GROUP_WEIGHT) × cosine(query, trace) + GROUP_WEIGHT × cosine(query, group centroid)
 *
 * A trace alone in its group (or in none) scores by its own cosine.
 */
export const GROUP_WEIGHT = 0.3;

/** Running sums of the unit vectors of each group's rows, so a write updates one centroid in O(dims). */
export class GroupCentroids {
  private readonly ids = new Map<string, number>();
  private readonly sums: Float64Array[] = [];
  private readonly sizes: number[] = [];
  private of = new Int32Array(0);
  private readonly ofGrowth = new GrowableArray(Int32Array);

  constructor(
    private readonly dims: number,
    readonly weight = GROUP_WEIGHT,
  ) {}

  resize(capacity: number): void {
    this.of = this.ofGrowth.grow(this.of, capacity, -1);
  }

  /** Add a row's vector to its group. `v` must be what leave() will later subtract. */
  join(row: number, group: string, v: ArrayLike<number>, scale: number): void {
    let id = this.ids.get(group);
    if (id === undefined) {
      id = this.sums.push(new Float64Array(this.dims)) - 1;
      this.sizes.push(0);
      this.ids.set(group, id);
    }
    const sum = this.sums[id]!;
    for (let d = 0; d < this.dims; d++) sum[d]! += v[d]! * scale;
    this.sizes[id]!++;
    this.of[row] = id;
  }

  /** Take a row's vector (the same one it joined with) out of its group, if it has one. */
  leave(row: number, v: ArrayLike<number>, scale: number): void {
    const id = this.of[row]!;
    if (id < 0) return;
    const sum = this.sums[id]!;
    if (--this.sizes[id]! === 0) sum.fill(0);
    else for (let d = 0; d < this.dims; d++) sum[d]! -= v[d]! * scale;
    this.of[row] = -1;
  }

  /** Cosine of the unit query with every group's centroid, by group id (0 for an empty group). */
  cosines(q: Float32Array): Float64Array {
    const out = new Float64Array(this.sums.length);
    this.sums.forEach((sum, id) => (out[id] = this.sizes[id] ? cosine(q, sum) : 0));
    return out;
  }

  /** Blend a row's own cosine with its group's (from cosines()); a row without a group keeps its own. */
  blend(row: number, own: number, groupCos: Float64Array): number {
    const id = this.of[row]!;
    return id < 0 || !this.weight ? own : (1 - this.weight) * own + this.weight * groupCos[id]!;
  }

  /** The same blend for one row, computing only its group's cosine. */
  blendOne(row: number, own: number, q: Float32Array): number {
    const id = this.of[row]!;
    return id < 0 || !this.weight ? own : (1 - this.weight) * own + this.weight * cosine(q, this.sums[id]!);
  }
}

function cosine(q: Float32Array, sum: Float64Array): number {
  let dot = 0;
  let norm = 0;
  for (let d = 0; d < sum.length; d++) {
    dot += q[d]! * sum[d]!;
    norm += sum[d]! * sum[d]!;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}
