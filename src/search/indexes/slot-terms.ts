/** A document's distinct terms: term ids and their weighted frequencies, index for index. */
export interface Terms {
  ids: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

/** The terms one chunk takes before the next slot starts a chunk of its own (256 KB per array). */
const CHUNK = 1 << 16;

/**
 * Every slot's terms back to back in typed arrays, slots in the order they were added. A typed
 * array per document cost about 300 bytes of array objects and allocator records on top of its
 * data, more than the data itself at a dozen terms a trace. The arrays are chunks of CHUNK terms
 * (the first grows to that size, copying as it goes): one array for all grew by copying every
 * term, and at a million traces (12 million terms) that copy held the event loop most of a
 * second. A slot's terms lie in one chunk. A removed slot's terms stay in place until the owner
 * rebuilds (slots are append-only there too).
 */
export class SlotTerms {
  private readonly ids: Uint32Array[] = [new Uint32Array(1024)];
  private readonly tfs: Float32Array[] = [new Float32Array(1024)];
  /** The terms each chunk holds (the last one's next slot goes there). */
  private readonly fill: number[] = [0];
  /** The first slot of each chunk. */
  private readonly firstSlot: number[] = [0];
  /** Where each slot's terms start in their chunk; they end where the next slot's start, or at its chunk's fill. */
  private readonly starts: number[] = [];

  /** Append the next slot's terms; returns its slot number. */
  push(terms: Terms): number {
    const n = terms.ids.length;
    let c = this.ids.length - 1;
    if (this.fill[c]! + n > this.ids[c]!.length) {
      if (this.fill[c]! + n <= CHUNK) this.grow(c, this.fill[c]! + n);
      else {
        c++;
        this.ids.push(new Uint32Array(Math.max(CHUNK, n)));
        this.tfs.push(new Float32Array(Math.max(CHUNK, n)));
        this.fill.push(0);
        this.firstSlot.push(this.starts.length);
      }
    }
    const ids = this.ids[c]!;
    const tfs = this.tfs[c]!;
    const at = this.fill[c]!;
    for (let i = 0; i < n; i++) {
      ids[at + i] = terms.ids[i]!;
      tfs[at + i] = terms.tfs[i]!;
    }
    this.starts.push(at);
    this.fill[c] = at + n;
    return this.starts.length - 1;
  }

  /** A slot's terms, as views (valid until the next push). */
  get(slot: number): Terms {
    const c = this.chunkOf(slot);
    const start = this.starts[slot]!;
    const end = this.endOf(slot, c);
    return { ids: this.ids[c]!.subarray(start, end), tfs: this.tfs[c]!.subarray(start, end) };
  }

  /** Whether a slot holds exactly these terms, in this order. */
  equals(slot: number, terms: Terms): boolean {
    const { ids, tfs } = this.get(slot);
    if (ids.length !== terms.ids.length) return false;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== terms.ids[i] || tfs[i] !== Math.fround(terms.tfs[i]!)) return false;
    return true;
  }

  /** How many chunks hold the terms (a test's window on the layout). */
  get chunks(): number {
    return this.ids.length;
  }

  /** The chunk a slot's terms lie in: the last whose first slot is at or before it. */
  private chunkOf(slot: number): number {
    let lo = 0;
    let hi = this.firstSlot.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstSlot[mid]! <= slot) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private endOf(slot: number, c: number): number {
    const nextChunk = c + 1 < this.firstSlot.length ? this.firstSlot[c + 1]! : this.starts.length;
    return slot + 1 < nextChunk ? this.starts[slot + 1]! : this.fill[c]!;
  }

  /** Grow chunk `c` (the last, still under CHUNK terms) to hold `need` terms. */
  private grow(c: number, need: number): void {
    const size = Math.min(CHUNK, Math.max(need, Math.ceil(this.ids[c]!.length * 1.25)));
    const ids = new Uint32Array(size);
    ids.set(this.ids[c]!.subarray(0, this.fill[c]!));
    const tfs = new Float32Array(size);
    tfs.set(this.tfs[c]!.subarray(0, this.fill[c]!));
    this.ids[c] = ids;
    this.tfs[c] = tfs;
  }
}
