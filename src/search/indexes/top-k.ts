/** A bounded min-heap of the best hits seen so far. */
export class TopK<T extends { score: number } = { uid: string; score: number }> {
  readonly items: T[] = [];
  constructor(private readonly k: number) {}
  get floor(): number {
    return this.items.length < this.k ? -Infinity : this.items[0]!.score;
  }
  push(h: T): void {
    const a = this.items;
    if (a.length < this.k) {
      a.push(h);
      for (let i = a.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (a[p]!.score <= a[i]!.score) break;
        [a[p], a[i]] = [a[i]!, a[p]!];
        i = p;
      }
      return;
    }
    if (h.score <= a[0]!.score) return;
    a[0] = h;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && a[l]!.score < a[m]!.score) m = l;
      if (r < a.length && a[r]!.score < a[m]!.score) m = r;
      if (m === i) break;
      [a[m], a[i]] = [a[i]!, a[m]!];
      i = m;
    }
  }
}
