/**
 * A bounded min-heap of the best hits seen so far. Equal scores are ordered by `tie` when given
 * (negative: the first is better), so which of several tied hits make the cut does not depend on
 * the order they came in (an index's slot order differs between a restart and a fresh build).
 */
export class TopK<T extends { score: number } = { uid: string; score: number }> {
  readonly items: T[] = [];
  constructor(
    private readonly k: number,
    private readonly tie?: (a: T, b: T) => number,
  ) {}
  get floor(): number {
    return this.items.length < this.k ? -Infinity : this.items[0]!.score;
  }
  /** a ranks below b. */
  private worse(a: T, b: T): boolean {
    return a.score < b.score || (a.score === b.score && this.tie !== undefined && this.tie(a, b) > 0);
  }
  push(h: T): void {
    const a = this.items;
    if (a.length < this.k) {
      a.push(h);
      for (let i = a.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!this.worse(a[i]!, a[p]!)) break;
        [a[p], a[i]] = [a[i]!, a[p]!];
        i = p;
      }
      return;
    }
    if (!this.worse(a[0]!, h)) return;
    a[0] = h;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.worse(a[l]!, a[m]!)) m = l;
      if (r < a.length && this.worse(a[r]!, a[m]!)) m = r;
      if (m === i) break;
      [a[m], a[i]] = [a[i]!, a[m]!];
      i = m;
    }
  }
}
