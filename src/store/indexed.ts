import { KeyTable } from '../platform/key-table.js';
import { type Opening, SegmentedMap } from '../platform/segmented-map.js';
import type { Doc } from './schema.js';

/** Rows per chunk of the row table: a chunk is never copied once full, so growth never copies all. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
/** What a chunk whose rows are all dead is replaced by (never written: only live rows are). */
const DEAD_CHUNK: readonly (Doc | undefined)[] = Object.freeze([]);
/** What a cold row holds until it is read (see Indexed.putCold). */
const COLD: Doc = Object.freeze({});

/**
 * Reads cold rows from where they lie: given a cold row, it reads that row (and may read the cold
 * rows after it with the same read) and hands each to `warm`.
 */
export type Thaw = (r: number, isCold: (r: number) => boolean, warm: (r: number, doc: Doc) => void) => void;

/**
 * The documents of a collection by row number, in the order they were added. A row is never
 * reused: a document that leaves (deleted, or moved, see Indexed.put) leaves a dead row, so an
 * index entry that still names it is known stale without asking anything else.
 */
class Rows {
  private chunks: (Doc | undefined)[][] = [];
  /** Live rows per chunk: a chunk with none is dropped. */
  private live: number[] = [];
  length = 0;
  /** Set while any row is cold. */
  thaw?: Thaw;
  /** Whether row `r` is cold, without reading it. */
  readonly cold = (r: number): boolean => this.chunks[r >>> CHUNK_BITS]![r & (CHUNK - 1)] === COLD;
  private readonly warm = (r: number, doc: Doc) => {
    if (this.cold(r)) this.replace(r, doc);
  };

  get(r: number): Doc | undefined {
    const doc = this.chunks[r >>> CHUNK_BITS]![r & (CHUNK - 1)];
    if (doc !== COLD) return doc;
    this.thaw!(r, this.cold, this.warm);
    const read = this.chunks[r >>> CHUNK_BITS]![r & (CHUNK - 1)];
    if (read === COLD) throw new Error(`row ${r} was not read`);
    return read;
  }

  /** Row `r` as it is held: undefined when dead, COLD when not read yet. */
  peek(r: number): Doc | undefined {
    return this.chunks[r >>> CHUNK_BITS]![r & (CHUNK - 1)];
  }

  pushCold(): number {
    return this.push(COLD);
  }

  push(doc: Doc): number {
    const r = this.length++;
    const c = r >>> CHUNK_BITS;
    if (c === this.chunks.length) {
      this.chunks.push([]);
      this.live.push(0);
    }
    this.chunks[c]!.push(doc);
    this.live[c]!++;
    return r;
  }

  /** Put `doc` in a live row. */
  replace(r: number, doc: Doc): void {
    this.chunks[r >>> CHUNK_BITS]![r & (CHUNK - 1)] = doc;
  }

  kill(r: number): void {
    const c = r >>> CHUNK_BITS;
    this.chunks[c]![r & (CHUNK - 1)] = undefined;
    // The last chunk is still being filled: it is kept whatever it holds.
    if (--this.live[c]! === 0 && c < this.chunks.length - 1) this.chunks[c] = DEAD_CHUNK as (Doc | undefined)[];
  }

  /**
   * The `count` live documents in row order. The array is made at its full length: grown by
   * pushes, a million documents' array held the loop tens of ms each time it was copied.
   */
  all(count: number): Doc[] {
    const out = new Array<Doc>(count);
    let n = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let i = 0; i < chunk.length; i++) {
        const doc = chunk[i];
        if (doc !== undefined) out[n++] = doc === COLD ? this.get((c << CHUNK_BITS) + i)! : doc;
      }
    }
    return out;
  }
}

/** A collection's keys in row order, and each one's document by its place in that order (see Indexed.listing). */
export interface Listing {
  readonly keys: string[];
  doc(i: number): Doc | undefined;
}

/** Rows per chunk of a row list (64 KB of Int32). */
const LIST_CHUNK_BITS = 14;
const LIST_CHUNK = 1 << LIST_CHUNK_BITS;

/**
 * The rows under one index value that more than one document has held, in the order they were
 * added, dead ones included until they are many. They are kept in chunks that are never copied
 * once full: a JS array of a million rows held the loop 55 ms when it grew (and 123 ms at three
 * million). The first chunk starts small and doubles up to a full chunk, so the many short lists
 * (a task's few traces) stay small.
 */
class RowList {
  private chunks: Int32Array[] = [new Int32Array(4)];
  length = 0;
  /** Rows in the list whose documents have left. */
  dead = 0;

  get(i: number): number {
    return this.chunks[i >>> LIST_CHUNK_BITS]![i & (LIST_CHUNK - 1)]!;
  }

  push(r: number): void {
    const c = this.length >>> LIST_CHUNK_BITS;
    let chunk = this.chunks[c];
    const at = this.length & (LIST_CHUNK - 1);
    if (!chunk) this.chunks.push((chunk = new Int32Array(LIST_CHUNK)));
    else if (at === chunk.length) {
      const grown = new Int32Array(Math.min(LIST_CHUNK, chunk.length * 2));
      grown.set(chunk);
      this.chunks[c] = chunk = grown;
    }
    chunk[at] = r;
    this.length++;
  }

  /** The rows `keep` says yes to, in order. */
  filter(keep: (r: number) => boolean): RowList {
    const out = new RowList();
    for (let i = 0; i < this.length; i++) {
      const r = this.get(i);
      if (keep(r)) out.push(r);
    }
    return out;
  }
}

/**
 * One collection in memory: documents by primary key plus secondary indexes (value → documents).
 * Documents sit in a row table; the key and every index value map to row numbers, so filling a
 * collection costs one insert in a typed key table per document (see KeyTable) and an array push
 * per index, where a Map per index value keyed by document id cost three times as much at a
 * million traces. A value held by one document maps to its row alone: at 100,000 traces, an
 * index on a field that is nearly unique (a history row's trace uid) would otherwise cost
 * 100,000 arrays.
 *
 * Order: every list (all(), and each index value's documents) is in row order, which is the order
 * a restart loads them in, since a snapshot writes all() in that order.
 */
export class Indexed {
  private readonly rows = new Rows();
  /** Row numbers by key, read from the rows themselves (see KeyTable). */
  private readonly rowOf: KeyTable;
  private readonly idx: { name: string; map: SegmentedMap<unknown, number | RowList> }[] = [];
  /**
   * The keys of the cold rows (rows 0 to coldKeys.length - 1 were put cold), so that finding a key
   * reads no row; let go once warm() has read them all.
   */
  private coldKeys?: string[];
  /** The next row warm() looks at. */
  private warmAt = 0;

  /**
   * `opening`, when given, is shared by every map of the collection and its indexes (see
   * Opening); `expected` is how many documents a fill is about to put.
   */
  constructor(
    private readonly key: string,
    indexes: readonly string[],
    opening?: Opening,
    expected = 0,
  ) {
    this.rowOf = new KeyTable(
      (r) => (this.coldKeys && r < this.coldKeys.length && this.rows.cold(r) ? this.coldKeys[r] : this.rows.get(r)?.[key]),
      opening,
      expected,
    );
    for (const name of indexes) this.idx.push({ name, map: new SegmentedMap(opening) });
  }

  get size(): number {
    return this.rowOf.size;
  }

  get(id: string): Doc | undefined {
    const r = this.rowOf.get(id);
    return r === undefined ? undefined : this.rows.get(r);
  }

  all(): Doc[] {
    return this.rows.all(this.rowOf.size);
  }

  byIndex(index: string, value: unknown): Doc[] {
    const m = this.idx.find((i) => i.name === index)?.map;
    if (!m) throw new Error(`no index ${index}`);
    const hit = m.get(value);
    if (hit === undefined) return [];
    if (typeof hit === 'number') return [this.rows.get(hit)!];
    // Made at its full length (see Rows.all): the rows not dead are exactly its documents.
    const out = new Array<Doc>(hit.length - hit.dead);
    let n = 0;
    for (let i = 0; i < hit.length; i++) {
      const doc = this.rows.get(hit.get(i));
      if (doc !== undefined) out[n++] = doc;
    }
    return out;
  }

  /**
   * Store `doc` under its key. A document that replaces one with the same index values keeps its
   * row, and so its place everywhere (an edit of a trace's text moves nothing). One that changes
   * an index value takes a new row: it goes last in every list, as it would after a restart.
   */
  put(doc: Doc): void {
    const id = doc[this.key] as string;
    // A new key is taken at the row the document is about to get.
    const r = this.rowOf.getOrAdd(id, this.rows.length);
    if (r !== undefined) {
      const old = this.rows.get(r)!;
      if (this.idx.every(({ name }) => old[name] === doc[name])) {
        this.rows.replace(r, doc);
        return;
      }
    }
    const nr = this.rows.push(doc);
    if (r !== undefined) {
      // Moved while the old row still holds the key (the table reads keys from the rows).
      this.rowOf.replace(id, nr);
      this.leave(r, this.rows.get(r)!);
    }
    for (const { name, map } of this.idx) {
      const v = doc[name];
      if (v !== undefined && v !== null) add(map, v, nr);
    }
  }

  /**
   * Documents known by their keys and index values only, put in an empty collection: each row is
   * read by `thaw` when it is first asked for, or by warm(). `indexValue(i, index)` is the value of
   * row i's index.
   */
  putCold(keys: string[], indexValue: (i: number, index: string) => unknown, thaw: Thaw): void {
    if (this.rows.length) throw new Error('rows are put cold in an empty collection only');
    this.coldKeys = keys;
    this.rows.thaw = thaw;
    for (let i = 0; i < keys.length; i++) {
      if (this.rowOf.getOrAdd(keys[i]!, i) !== undefined) throw new Error(`the key ${keys[i]} is listed twice`);
      this.rows.pushCold();
      for (const { name, map } of this.idx) {
        const v = indexValue(i, name);
        if (v !== undefined && v !== null) add(map, v, i);
      }
    }
  }

  /** Read cold rows in order until `deadline` (a performance.now()); true once none is left. */
  warm(deadline: number): boolean {
    const n = this.coldKeys?.length ?? 0;
    while (this.warmAt < n) {
      if (this.rows.cold(this.warmAt)) this.rows.get(this.warmAt);
      this.warmAt++;
      if ((this.warmAt & 63) === 0 && performance.now() >= deadline) return false;
    }
    this.coldKeys = undefined;
    this.rows.thaw = undefined;
    return true;
  }

  /**
   * Every key in row order, without reading a cold row, and each one's document by its place in
   * that order, read when asked (undefined once it has left its row: deleted, or moved by a put).
   */
  listing(): Listing {
    const keys = new Array<string>(this.rowOf.size);
    const rows = new Int32Array(this.rowOf.size);
    let n = 0;
    for (let r = 0; r < this.rows.length; r++) {
      const doc = this.rows.peek(r);
      if (doc === undefined) continue;
      rows[n] = r;
      keys[n++] = doc === COLD ? this.coldKeys![r]! : (doc[this.key] as string);
    }
    return { keys, doc: (i) => this.rows.get(rows[i]!) };
  }

  /**
   * Put `doc` in place of the stored document of the same id, whose indexed fields it must share
   * (an equal document that shares memory with another): no index changes.
   */
  swap(id: string, doc: Doc): void {
    const r = this.rowOf.get(id);
    if (r !== undefined) this.rows.replace(r, doc);
  }

  delete(id: string): void {
    const r = this.rowOf.get(id);
    if (r === undefined) return;
    const old = this.rows.get(r)!;
    this.rowOf.delete(id);
    this.leave(r, old);
  }

  /** Row `r` (holding `old`) dies: each of its index values drops it, at once or when its dead rows are many. */
  private leave(r: number, old: Doc): void {
    this.rows.kill(r);
    for (const { name, map } of this.idx) {
      const v = old[name];
      if (v === undefined || v === null) continue;
      const b = map.get(v);
      if (b === undefined) continue;
      if (typeof b === 'number') {
        if (b === r) map.delete(v);
        continue;
      }
      // Compacted once half its rows are dead: amortized, a dead row costs one visit.
      if (++b.dead * 2 < b.length) continue;
      const live = b.filter((x) => this.rows.get(x) !== undefined);
      if (live.length === 0) map.delete(v);
      else map.replace(v, live.length === 1 ? live.get(0) : live);
    }
  }
}

/** Row `r` (the newest row) now holds `v`. */
function add(map: SegmentedMap<unknown, number | RowList>, v: unknown, r: number): void {
  const b = map.get(v);
  if (b === undefined) map.append(v, r);
  else if (typeof b === 'number') {
    const list = new RowList();
    list.push(b);
    list.push(r);
    map.replace(v, list);
  } else b.push(r);
}
