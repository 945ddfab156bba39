/** The first segment's size, and the least any later one gets. */
const MIN_SEGMENT = 8192;
/** The most new keys one segment takes: its growth rehashes at most this many (a few ms), never the whole map. */
const MAX_SEGMENT = 65_536;
/**
 * The most keys one segment takes while a store opens. A Map shrinks when three quarters of its
 * keys are deleted, rehashing the rest in one call: at this size that stays a few tens of ms.
 */
const MAX_OPENING_SEGMENT = 2 ** 20;

/**
 * Shared by every map of a store: while `open`, a map grows in one segment (up to
 * MAX_OPENING_SEGMENT keys). An open fills its maps in long synchronous stretches before the
 * daemon answers anything, so a rehash there holds no request, and one segment makes a key that
 * is not held (every new key of a fill) cost one lookup instead of one per segment. Once the open
 * ends, the next new key of each map starts a segment of its own and growth is bounded again.
 */
export type Opening = { open: boolean };

/**
 * A Map, in insertion order, held as a list of Maps of at most MAX_SEGMENT new keys each. A JS
 * Map doubles its table when full and rehashes every entry in that one call — at a million
 * entries that is a long turn — and a collection and its indexes grow in step, so
 * one write (or one import chunk) would pay for all of them in the same turn (no turn may hold
 * the loop over 100 ms: docs/architecture.md, "Runtime rules"). Here a growth rehashes one
 * segment. A lookup asks each segment, newest first, so a key that is not there costs one Map
 * lookup per segment: segments grow with the map (each as large as all before it, from
 * MIN_SEGMENT up to MAX_SEGMENT), which keeps them few (5 at 100,000 entries, 19 at a million),
 * and a caller that knows a key is new appends it without asking (`append`). A map filled while
 * a store opens holds what it was filled with in one segment (see Opening). Values are never
 * undefined.
 */
export class SegmentedMap<K, V extends NonNullable<unknown>> {
  private segs: Map<K, V>[] = [new Map()];
  private count = 0;
  /** How many new keys the last segment takes. */
  private room = MIN_SEGMENT;

  constructor(private readonly opening?: Opening) {}

  get size(): number {
    return this.count;
  }

  /** How many Maps a key that is not held is looked for in. */
  get segments(): number {
    return this.segs.length;
  }

  private find(k: K): Map<K, V> | undefined {
    const segs = this.segs;
    for (let i = segs.length - 1; i >= 0; i--) if (segs[i]!.has(k)) return segs[i];
    return undefined;
  }

  get(k: K): V | undefined {
    const segs = this.segs;
    for (let i = segs.length - 1; i >= 0; i--) {
      const v = segs[i]!.get(k);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  has(k: K): boolean {
    return this.find(k) !== undefined;
  }

  /** Set the value of a key already held (false, and nothing set, when it is not). */
  replace(k: K, v: V): boolean {
    const at = this.find(k);
    if (!at) return false;
    at.set(k, v);
    return true;
  }

  /** A key already held keeps its place (as in a Map); a new one goes last. */
  set(k: K, v: V): this {
    const at = this.find(k);
    if (at) at.set(k, v);
    else this.append(k, v);
    return this;
  }

  /** Put a key the caller knows is not held last, without asking each segment for it first. */
  append(k: K, v: V): this {
    let last = this.segs[this.segs.length - 1]!;
    if (last.size >= (this.opening?.open ? MAX_OPENING_SEGMENT : this.room)) {
      this.room = Math.min(MAX_SEGMENT, Math.max(MIN_SEGMENT, this.count));
      this.segs.push((last = new Map()));
    }
    last.set(k, v);
    this.count++;
    return this;
  }

  delete(k: K): boolean {
    const at = this.find(k);
    if (!at) return false;
    at.delete(k);
    this.count--;
    if (at.size === 0 && this.segs.length > 1) this.segs = this.segs.filter((s) => s !== at);
    return true;
  }

  /** The values in insertion order, as an array (faster than spreading values()). */
  valuesArray(): V[] {
    if (this.segs.length === 1) return [...this.segs[0]!.values()];
    // Spread per segment, then one concat: as fast as spreading one Map (a push loop was 3–5× slower).
    return ([] as V[]).concat(...this.segs.map((s) => [...s.values()]));
  }

  /** The only value of a one-entry map. */
  first(): V | undefined {
    for (const s of this.segs) for (const v of s.values()) return v;
    return undefined;
  }

  *keys(): IterableIterator<K> {
    for (const s of this.segs) yield* s.keys();
  }

  *values(): IterableIterator<V> {
    for (const s of this.segs) yield* s.values();
  }

  *entries(): IterableIterator<[K, V]> {
    for (const s of this.segs) yield* s.entries();
  }
}
