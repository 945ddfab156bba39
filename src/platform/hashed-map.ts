/** Parts of a HashedMap: a growth rehashes one part, a 64th of the keys (15,000 of a million: well under a ms). */
const PARTS = 64;

/**
 * A Map from strings, held as PARTS Maps, each key in the one its hash picks. A JS Map doubles
 * its table when full and rehashes every entry in that one call (a quarter of a second at a
 * million uids); here a growth rehashes one part. Unlike a SegmentedMap, a key that is not held
 * costs one lookup, not one per segment: at a million uids a SegmentedMap asks 19 Maps, each
 * a cache miss, and a keyword index filled from its file spent most of its time there. The
 * price is order: keys come back grouped by part, not in insertion order, so it suits maps that
 * are only looked up (a uid's entry or row). Values are never undefined.
 */
export class HashedMap<V extends NonNullable<unknown>> {
  private readonly parts: Map<string, V>[] = Array.from({ length: PARTS }, () => new Map());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(k: string): V | undefined {
    return this.part(k).get(k);
  }

  has(k: string): boolean {
    return this.part(k).has(k);
  }

  set(k: string, v: V): this {
    const p = this.part(k);
    const before = p.size;
    p.set(k, v);
    this.count += p.size - before;
    return this;
  }

  delete(k: string): boolean {
    const gone = this.part(k).delete(k);
    if (gone) this.count--;
    return gone;
  }

  *keys(): IterableIterator<string> {
    for (const p of this.parts) yield* p.keys();
  }

  /** The part a key is in: FNV-1a of its characters. */
  private part(k: string): Map<string, V> {
    let h = 0x811c9dc5;
    for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 16777619);
    return this.parts[(h ^ (h >>> 15)) & (PARTS - 1)]!;
  }
}
