import { BoundedBest } from '../../platform/top-k.js';

/**
 * The best hits seen so far (src/platform/top-k.ts), by score. Equal scores are ordered by `tie`
 * when given (negative: the first is better), so which of several tied hits make the cut does not
 * depend on the order they came in (an index's slot order differs between a restart and a fresh build).
 */
export class TopK<T extends { score: number } = { uid: string; score: number }> extends BoundedBest<T> {
  constructor(k: number, tie?: (a: T, b: T) => number) {
    super(k, tie ? (a, b) => b.score - a.score || tie(a, b) : (a, b) => b.score - a.score);
  }
  /** The score a hit must reach to be considered: -Infinity until k are kept. */
  get floor(): number {
    return this.worst?.score ?? -Infinity;
  }
  push(h: T): void {
    this.offer(h);
  }
  /** The kept hits, in no order (the caller sorts). */
  get items(): T[] {
    return this.kept as T[];
  }
}
