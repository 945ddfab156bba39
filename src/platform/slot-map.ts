import { KeyTable } from './key-table.js';

/** Values per chunk of slots: a full chunk is never copied, so growth never copies them all. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;

/**
 * A map from string keys to values that hold their own key (`keyOf`), for maps only looked up
 * (no order). Values sit in numbered slots, reused once freed, and a KeyTable finds a key's slot
 * from the values themselves: no Map entry and no string of its own per key. At a million uids,
 * 64 Maps picked by a hash of the key (what the timeline kept its entries in before) cost a fifth
 * of a start's reading of its keyword index in inserts alone; with this, that reading took
 * 5.8–8.3 s against 8.8–11.0 s.
 */
export class SlotMap<V extends object> {
  private readonly chunks: (V | undefined)[][] = [];
  private readonly free: number[] = [];
  private next = 0;
  private readonly table: KeyTable;

  constructor(private readonly keyOf: (v: V) => string) {
    this.table = new KeyTable((slot) => {
      const v = this.at(slot);
      return v === undefined ? undefined : keyOf(v);
    });
  }

  get size(): number {
    return this.table.size;
  }

  get(k: string): V | undefined {
    const slot = this.table.get(k);
    return slot === undefined ? undefined : this.at(slot);
  }

  has(k: string): boolean {
    return this.table.get(k) !== undefined;
  }

  /** `v` must hold `k` (keyOf(v) === k). */
  set(k: string, v: V): this {
    const slot = this.free.length ? this.free[this.free.length - 1]! : this.next;
    const held = this.table.getOrAdd(k, slot);
    if (held !== undefined) {
      this.put(held, v);
      return this;
    }
    if (slot === this.next) this.next++;
    else this.free.pop();
    this.put(slot, v);
    return this;
  }

  delete(k: string): boolean {
    const slot = this.table.get(k);
    if (slot === undefined) return false;
    this.table.delete(k);
    this.chunks[slot >>> CHUNK_BITS]![slot & (CHUNK - 1)] = undefined;
    this.free.push(slot);
    return true;
  }

  *keys(): IterableIterator<string> {
    for (const chunk of this.chunks) for (const v of chunk) if (v !== undefined) yield this.keyOf(v);
  }

  private at(slot: number): V | undefined {
    return this.chunks[slot >>> CHUNK_BITS]?.[slot & (CHUNK - 1)];
  }

  private put(slot: number, v: V): void {
    const c = slot >>> CHUNK_BITS;
    // Slots are handed out in order (or reused), so a new chunk is always the next one.
    if (c === this.chunks.length) this.chunks.push([]);
    this.chunks[c]![slot & (CHUNK - 1)] = v;
  }
}
