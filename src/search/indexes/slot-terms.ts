/** A document's distinct terms: term ids and their weighted frequencies, index for index. */
export interface Terms {
  ids: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

/**
 * Every slot's terms back to back in two growable typed arrays, slots in the order they were
 * added. A typed array per document cost about 300 bytes of array objects and allocator records
 * on top of its data, more than the data itself at a dozen terms a trace. A removed slot's terms
 * stay in place until the owner rebuilds (slots are append-only there too).
 */
export class SlotTerms {
  private ids = new Uint32Array(1024);
  private tfs = new Float32Array(1024);
  private used = 0;
  /** Where each slot's terms start; they end where the next slot's start (or at `used`). */
  private readonly starts: number[] = [];

  /** Append the next slot's terms; returns its slot number. */
  push(terms: Terms): number {
    const n = terms.ids.length;
    if (this.used + n > this.ids.length) this.grow(this.used + n);
    for (let i = 0; i < n; i++) {
      this.ids[this.used + i] = terms.ids[i]!;
      this.tfs[this.used + i] = terms.tfs[i]!;
    }
    this.starts.push(this.used);
    this.used += n;
    return this.starts.length - 1;
  }

  /** A slot's terms, as views (valid until the next push). */
  get(slot: number): Terms {
    const start = this.starts[slot]!;
    const end = slot + 1 < this.starts.length ? this.starts[slot + 1]! : this.used;
    return { ids: this.ids.subarray(start, end), tfs: this.tfs.subarray(start, end) };
  }

  /** Whether a slot holds exactly these terms, in this order. */
  equals(slot: number, terms: Terms): boolean {
    const start = this.starts[slot]!;
    const end = slot + 1 < this.starts.length ? this.starts[slot + 1]! : this.used;
    if (end - start !== terms.ids.length) return false;
    for (let i = start; i < end; i++) if (this.ids[i] !== terms.ids[i - start] || this.tfs[i] !== Math.fround(terms.tfs[i - start]!)) return false;
    return true;
  }

  private grow(need: number): void {
    const size = Math.max(need, Math.ceil(this.ids.length * 1.25));
    const ids = new Uint32Array(size);
    ids.set(this.ids.subarray(0, this.used));
    const tfs = new Float32Array(size);
    tfs.set(this.tfs.subarray(0, this.used));
    this.ids = ids;
    this.tfs = tfs;
  }
}
