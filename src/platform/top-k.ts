/**
 * The best `k` items offered, in `cmp` order, without sorting them all: an export page needs its
 * 100 best of every trace, a search its 10 best hits. A bounded heap keeps the worst kept item on top, so each offer costs
 * one comparison to reject or O(log k) to keep, whatever order the items come in. `accept`, when
 * given, is asked only about items good enough to be kept, so a costly test runs rarely.
 */
export class BoundedBest<T> {
  /** Max-heap by cmp: heap[0] is the kept item that sorts last. */
  private readonly heap: T[] = [];

  constructor(
    private readonly k: number,
    private readonly cmp: (a: T, b: T) => number,
    private readonly accept?: (x: T) => boolean,
  ) {}

  offer(x: T): void {
    const h = this.heap;
    if (this.k <= 0 || (h.length === this.k && this.cmp(x, h[0]!) >= 0)) return;
    if (this.accept && !this.accept(x)) return;
    if (h.length < this.k) {
      h.push(x);
      for (let i = h.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (this.cmp(h[i]!, h[p]!) <= 0) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    h[0] = x;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.cmp(h[l]!, h[m]!) > 0) m = l;
      if (r < h.length && this.cmp(h[r]!, h[m]!) > 0) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** The kept item that sorts last once `k` are kept (what an item must beat), else undefined. */
  get worst(): T | undefined {
    return this.heap.length === this.k ? this.heap[0] : undefined;
  }

  /** The kept items, in no order. */
  get kept(): readonly T[] {
    return this.heap;
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.heap].sort(this.cmp);
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const t = h[i]!;
    h[i] = h[j]!;
    h[j] = t;
  }
}

/** The first `k` items of `items` in `cmp` order (see BoundedBest). */
export function topK<T>(items: Iterable<T>, k: number, cmp: (a: T, b: T) => number, accept?: (x: T) => boolean): T[] {
  const best = new BoundedBest(k, cmp, accept);
  for (const x of items) best.offer(x);
  return best.sorted();
}
