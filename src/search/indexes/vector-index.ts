import { GROUP_WEIGHT, GroupCentroids } from './group-centroids.js';
import { GrowableArray } from './growable-array.js';
import { DENSITY_SAMPLE, HUBNESS_WEIGHT, NeighborDensity } from './neighbor-density.js';
import { RowPlaces } from './row-places.js';
import { type ScanFn, simdModule, simdScan } from './simd-scan.js';
import { TopK } from './top-k.js';

/** A hit of a vector search: the trace uid and its similarity to the query (cosine, blended with its group's and less its density penalty: group-centroids.ts, neighbor-density.ts). */
export interface VectorHit {
  uid: string;
  score: number;
}

/**
 * One row as kept (for the persisted index, vector-file.ts): its int8 components and scale, the
 * tag its writer gave it (the text's hash), and its neighbour cosines (empty: not measured).
 */
export interface RawRow {
  uid: string;
  userId: string;
  tag: number;
  scale: number;
  components: Int8Array;
  density: Float32Array;
}

/** How much the density penalty and the group smoothing count (0 turns one off). */
export interface Weights {
  hubness: number;
  group: number;
}

/** Equal scores rank in uid order (the same hits whatever the slots). */
const byUid = (a: VectorHit, b: VectorHit) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);

/** Query components are sent to the SIMD scan as int16 (fine enough next to int8 rows). */
const Q16 = 32767;
const PAGE = 65536;

/**
 * One user's vectors, packed: int8 components (rows padded to a multiple of 16 for SIMD) with a
 * float scale per row, ≈ 1/4 of Float32. Rows live in a WebAssembly memory when SIMD is
 * available, so the scan reads them in place.
 */
class Block {
  readonly stride: number;
  scales = new Float32Array(0);
  /** What the writer tagged each row with (the embedded text's hash): a persisted row is reused only while it matches. */
  tags = new Float64Array(0);
  uids: (string | undefined)[] = [];
  readonly free: number[] = [];
  used = 0;
  rows = new Int8Array(0);
  query = new Int16Array(0);
  out = new Int32Array(0);
  rowsPtr = 0;
  outPtr = 0;
  scan?: ScanFn;
  /** The SIMD scan's memory (query, rows, output), grown in place as rows are added. */
  private mem?: WebAssembly.Memory;
  readonly density: NeighborDensity;
  readonly groups: GroupCentroids;
  /** Where the scan without SIMD leaves its dot products (the SIMD scan leaves them in `out`). */
  private dotScratch = new Float64Array(0);
  /** The row being measured, as a query (reused: one measurement at a time). */
  private readonly probe: Float32Array;
  /** Rows loaded in bulk whose density is still to be measured. */
  readonly pending: number[] = [];
  private readonly scalesGrowth = new GrowableArray(Float32Array);
  private readonly tagsGrowth = new GrowableArray(Float64Array);

  constructor(
    private readonly dims: number,
    weights: Weights,
  ) {
    this.density = new NeighborDensity(weights.hubness);
    this.groups = new GroupCentroids(dims, weights.group);
    this.stride = Math.ceil(dims / 16) * 16;
    this.probe = new Float32Array(dims);
    this.resize(64);
  }

  private get capacity(): number {
    return this.scales.length;
  }

  private resize(cap: number): void {
    const rowsPtr = this.stride * 2;
    const outPtr = rowsPtr + cap * this.stride;
    const bytes = outPtr + cap * 4;
    const module = simdModule();
    let buffer: ArrayBuffer;
    let rows: Int8Array<ArrayBuffer>;
    if (module) {
      // The rows grow in place: a copy of every row would hold the event loop for seconds at a
      // million rows, where growing the memory takes milliseconds. Only the scan's output, which
      // holds nothing between scans, moves to the new end.
      if (!this.mem) {
        this.mem = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
        this.scan = simdScan(module, this.mem);
      } else if (bytes > this.mem.buffer.byteLength) this.mem.grow(Math.ceil((bytes - this.mem.buffer.byteLength) / PAGE));
      buffer = this.mem.buffer;
      rows = new Int8Array(buffer, rowsPtr, cap * this.stride);
    } else {
      buffer = new ArrayBuffer(bytes);
      rows = new Int8Array(buffer, rowsPtr, cap * this.stride);
      rows.set(this.rows.subarray(0, this.used * this.stride));
    }
    this.rows = rows;
    this.scales = this.scalesGrowth.grow(this.scales, cap);
    this.tags = this.tagsGrowth.grow(this.tags, cap);
    this.query = new Int16Array(buffer, 0, this.stride);
    this.out = new Int32Array(buffer, outPtr, cap);
    this.rowsPtr = rowsPtr;
    this.outPtr = outPtr;
    this.density.resize(cap);
    this.groups.resize(cap);
  }

  /** A row's stored (int8) components; times its scale, its vector. */
  row(slot: number): Int8Array {
    return this.rows.subarray(slot * this.stride, slot * this.stride + this.dims);
  }

  joinGroup(slot: number, group: string | undefined): void {
    if (group !== undefined) this.groups.join(slot, group, this.row(slot), this.scales[slot]!);
  }

  leaveGroup(slot: number): void {
    this.groups.leave(slot, this.row(slot), this.scales[slot]!);
  }

  alloc(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    // Doubling while small; a quarter at a time once large (a 100,000-row block doubled would
    // hold 24 MB of empty rows).
    if (this.used === this.capacity) this.resize(Math.ceil(this.capacity * (this.capacity < 65536 ? 2 : 1.25)));
    return this.used++;
  }

  /** Room for `rows` rows in all (a fill that knows how many will come), with a little to spare. */
  reserve(rows: number): void {
    if (rows > this.capacity) this.resize(Math.ceil(rows * 1.05) + 64);
  }

  write(slot: number, v: Float32Array): void {
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(v[d]!));
    const scale = max / 127;
    this.scales[slot] = scale;
    const base = slot * this.stride;
    for (let d = 0; d < this.dims; d++) this.rows[base + d] = scale ? Math.round(v[d]! / scale) : 0;
  }

  /** Store components already quantised (a persisted row): bit for bit what write() made of its vector. */
  writeRaw(slot: number, components: Int8Array, scale: number): void {
    const base = slot * this.stride;
    this.rows.set(components.subarray(0, this.dims), base);
    this.scales[slot] = scale;
  }

  /**
   * Measure the density of a row against the sample rows, from its stored components (so a row
   * written now and one loaded after a restart get the same cosines, to the last bit that ranks).
   * A row written now that belongs to the sample is also offered to every other row as a
   * neighbour, since their densities are measured against it; after a bulk load every row
   * measures itself, so there is no need (offerToOthers false).
   */
  measure(slot: number, offerToOthers: boolean): void {
    this.density.reset(slot);
    if (!this.density.weight) return;
    const row = this.row(slot);
    const scale = this.scales[slot]!;
    const v = this.probe;
    for (let d = 0; d < this.dims; d++) v[d] = row[d]! * scale;
    const inSample = slot < DENSITY_SAMPLE && offerToOthers;
    const n = inSample ? this.used : Math.min(this.used, DENSITY_SAMPLE);
    const { values, factor } = this.dots(v, n);
    this.density.measure(slot, values, this.scales, factor, n, inSample);
  }

  /** Whether a row holds a vector (a removed one is zeroed and free). */
  readonly live = (row: number): boolean => this.scales[row] !== 0;

  /** What search adds to each row's similarity (see NeighborDensity.adjustments). */
  adjustments(): Float32Array {
    return this.density.adjustments(this.used, this.live);
  }

  /**
   * Dot products of the unit query with the first `used` rows' stored components: row s's cosine
   * is values[s] × scales[s] × factor (a row of scale 0 is free, and callers skip it). Callers
   * compute each cosine where they read it instead of this storing them: in the daemon, a double
   * stored per row into a typed array allocated a heap number per row (its allocation profile
   * under pushes: ~15 KB of garbage per density measurement, a quarter of all it allocated),
   * where a loop that only reads them allocates nothing.
   */
  dots(q: Float32Array, used = this.used): { values: Int32Array | Float64Array; factor: number } {
    const { dims, stride, rows } = this;
    if (this.scan) {
      let max = 0;
      for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(q[d]!));
      const qs = max / Q16 || 1;
      for (let d = 0; d < dims; d++) this.query[d] = Math.round(q[d]! / qs);
      this.scan(0, this.rowsPtr, used, stride, this.outPtr);
      return { values: this.out, factor: qs };
    }
    if (this.dotScratch.length < used) this.dotScratch = new Float64Array(Math.max(used, this.dotScratch.length * 2));
    const values = this.dotScratch;
    // Doubles: V8 multiplies them without a conversion per component.
    const qd = Float64Array.from(q);
    for (let s = 0, base = 0; s < used; s++, base += stride) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += qd[d]! * rows[base + d]!;
      values[s] = dot;
    }
    return { values, factor: 1 };
  }
}

/**
 * Unit vectors of traces, one packed block per user, searched exhaustively: at 100,000 traces a
 * scan is ~10 M multiply-adds, fast enough that an approximate index would only cost recall.
 * Vectors are written once per trace write and never recomputed per query; so is each trace's
 * neighbour density (neighbor-density.ts), measured against a bounded sample of the user's rows.
 * A removed or rewritten trace stays counted in its old neighbours' densities (a small bias
 * towards fewer hits from a crowd, never a wrong hit).
 */
export class VectorIndex {
  private readonly blocks = new Map<string, Block>();
  private readonly where = new RowPlaces();

  /** Weights 0 rank by plain cosine (see neighbor-density.ts and group-centroids.ts). */
  constructor(
    readonly dims: number,
    private readonly weights: Weights = { hubness: HUBNESS_WEIGHT, group: GROUP_WEIGHT },
  ) {}

  get size(): number {
    return this.where.size;
  }

  has(uid: string): boolean {
    return this.where.has(uid);
  }

  /** Whether the uid's row is this user's and was written with this tag (the same text: nothing to embed again). */
  holds(uid: string, userId: string, tag: number): boolean {
    const at = this.where.get(uid);
    return !!at && at.user === userId && this.blocks.get(at.user)!.tags[at.slot] === tag;
  }

  /** Store (or replace) a trace's unit vector and its group (task); null removes it (nothing to compare with). */
  upsert(uid: string, userId: string, v: Float32Array | null, group?: string, tag = 0): void {
    const at = this.put(uid, userId, v, group, tag);
    if (at) at.block.measure(at.slot, true);
  }

  /**
   * Fill the index in bulk (a start-up): vectors are searchable at once, their densities are
   * measured later by measurePending, a little at a time, so a large memory is not held up for
   * seconds. Until then those rows simply get no density penalty.
   */
  load(rows: Iterable<{ uid: string; userId: string; vector: Float32Array | null; group?: string; tag?: number }>): void {
    for (const r of rows) {
      const at = this.put(r.uid, r.userId, r.vector, r.group, r.tag ?? 0);
      if (at) at.block.pending.push(at.slot);
    }
  }

  /**
   * Take back a row as raw() gave it (a persisted index): the same components and scale, so it
   * ranks exactly as the row it was; its density too when one was measured, else it is queued
   * for measurement like a row of load().
   */
  loadRaw(r: RawRow, group?: string): void {
    const at = this.put(r.uid, r.userId, r.components, group, r.tag, r.scale);
    if (!at) return;
    if (r.density.length) at.block.density.restore(at.slot, r.density);
    else at.block.pending.push(at.slot);
  }

  /** Every indexed uid (a copy: the index may change while the caller goes through it). */
  uids(): string[] {
    return [...this.where.keys()];
  }

  /** One row as stored (views into the index: copy before the index changes), or undefined. */
  raw(uid: string): RawRow | undefined {
    const at = this.where.get(uid);
    if (!at) return undefined;
    const b = this.blocks.get(at.user)!;
    return {
      uid,
      userId: at.user,
      tag: b.tags[at.slot]!,
      scale: b.scales[at.slot]!,
      components: b.row(at.slot),
      // Empty until measured (a row still queued has none; one that got some only as a neighbour
      // of others carries a partial set, as it would live).
      density: b.density.saved(at.slot),
    };
  }

  /** Make room for a fill of `rows` rows of one user at once (no doubling on the way). */
  reserve(userId: string, rows: number): void {
    let block = this.blocks.get(userId);
    if (!block) this.blocks.set(userId, (block = new Block(this.dims, this.weights)));
    block.reserve(rows);
  }

  /** Rows queued by load() whose density is still to be measured. */
  get unmeasured(): number {
    let n = 0;
    for (const b of this.blocks.values()) n += b.pending.length;
    return n;
  }

  /** Measure up to `budget` rows queued by load(); true while some remain. */
  measurePending(budget: number): boolean {
    for (const b of this.blocks.values()) {
      while (budget > 0 && b.pending.length) {
        const slot = b.pending.pop()!;
        if (!b.live(slot)) continue;
        b.measure(slot, false);
        budget--;
      }
      if (b.pending.length) return true;
    }
    return false;
  }

  private put(
    uid: string,
    userId: string,
    v: Float32Array | Int8Array | null,
    group: string | undefined,
    tag: number,
    rawScale?: number,
  ): { block: Block; slot: number } | undefined {
    if (v && v.length !== this.dims) throw new Error(`vector of ${v.length} dimensions in a ${this.dims}-dimension index`);
    const at = this.where.get(uid);
    if (at && (at.user !== userId || !v)) this.remove(uid);
    if (!v) return undefined;
    const cur = this.where.get(uid);
    let block = this.blocks.get(userId);
    if (!block) this.blocks.set(userId, (block = new Block(this.dims, this.weights)));
    const slot = cur ? cur.slot : block.alloc();
    if (cur) block.leaveGroup(slot);
    if (v instanceof Int8Array) block.writeRaw(slot, v, rawScale!);
    else block.write(slot, v);
    block.tags[slot] = tag;
    block.uids[slot] = uid;
    block.joinGroup(slot, group);
    if (!cur) this.where.set(uid, userId, slot);
    return { block, slot };
  }

  remove(uid: string): void {
    const at = this.where.get(uid);
    if (!at) return;
    const block = this.blocks.get(at.user)!;
    block.uids[at.slot] = undefined;
    block.leaveGroup(at.slot);
    block.scales[at.slot] = 0;
    block.density.reset(at.slot);
    block.free.push(at.slot);
    this.where.delete(uid);
  }

  /** Similarity of one stored trace to a unit query vector, as search scores it (undefined when not indexed). */
  similarity(uid: string, q: Float32Array): number | undefined {
    const at = this.where.get(uid);
    if (!at) return undefined;
    const b = this.blocks.get(at.user)!;
    let dot = 0;
    const base = at.slot * b.stride;
    for (let d = 0; d < this.dims; d++) dot += q[d]! * b.rows[base + d]!;
    return b.groups.blendOne(at.slot, dot * b.scales[at.slot]!, q) + b.adjustments()[at.slot]!;
  }

  /**
   * The k traces of one user most similar to the unit query vector, best first, among those
   * `accept` lets through (asked only for traces that would enter the top k).
   */
  search(userId: string, query: Float32Array, k: number, accept: (uid: string) => boolean = () => true): VectorHit[] {
    const b = this.blocks.get(userId);
    if (!b || k <= 0) return [];
    const { values, factor } = b.dots(query);
    const { scales, uids, groups } = b;
    const adjust = b.adjustments();
    const groupCos = groups.cosines(query);
    const top = new TopK<VectorHit>(k, byUid);
    for (let s = 0; s < b.used; s++) {
      const scale = scales[s]!;
      const score = groups.blend(s, values[s]! * scale * factor, groupCos) + adjust[s]!;
      if (score < top.floor || scale === 0) continue;
      const uid = uids[s]!;
      if (accept(uid)) top.push({ uid, score });
    }
    return top.items.sort((x, y) => y.score - x.score || byUid(x, y));
  }
}
