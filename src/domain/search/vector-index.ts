import { simdModule, simdScan, type ScanFn } from './simd-scan.js';
import { TopK } from './top-k.js';

/** A hit of a vector search: the trace uid and its cosine similarity to the query. */
export interface VectorHit {
  uid: string;
  score: number;
}

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
  uids: (string | undefined)[] = [];
  readonly free: number[] = [];
  used = 0;
  rows = new Int8Array(0);
  query = new Int16Array(0);
  out = new Int32Array(0);
  rowsPtr = 0;
  outPtr = 0;
  scan?: ScanFn;

  constructor(private readonly dims: number) {
    this.stride = Math.ceil(dims / 16) * 16;
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
    if (module) {
      const mem = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
      this.scan = simdScan(module, mem);
      buffer = mem.buffer;
    } else buffer = new ArrayBuffer(bytes);
    const rows = new Int8Array(buffer, rowsPtr, cap * this.stride);
    rows.set(this.rows.subarray(0, this.used * this.stride));
    const scales = new Float32Array(cap);
    scales.set(this.scales);
    this.rows = rows;
    this.scales = scales;
    this.query = new Int16Array(buffer, 0, this.stride);
    this.out = new Int32Array(buffer, outPtr, cap);
    this.rowsPtr = rowsPtr;
    this.outPtr = outPtr;
  }

  alloc(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.capacity) this.resize(this.capacity * 2);
    return this.used++;
  }

  write(slot: number, v: Float32Array): void {
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(v[d]!));
    const scale = max / 127;
    this.scales[slot] = scale;
    const base = slot * this.stride;
    for (let d = 0; d < this.dims; d++) this.rows[base + d] = scale ? Math.round(v[d]! / scale) : 0;
  }

  /** Cosine of every row with the unit query (unscaled rows read 0 and are skipped by callers). */
  scores(q: Float32Array, into: Float64Array): void {
    const { dims, stride, rows, scales, used } = this;
    if (this.scan) {
      let max = 0;
      for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(q[d]!));
      const qs = max / Q16 || 1;
      for (let d = 0; d < dims; d++) this.query[d] = Math.round(q[d]! / qs);
      this.scan(0, this.rowsPtr, used, stride, this.outPtr);
      const out = this.out;
      for (let s = 0; s < used; s++) into[s] = out[s]! * scales[s]! * qs;
      return;
    }
    // Doubles: V8 multiplies them without a conversion per component.
    const qd = Float64Array.from(q);
    for (let s = 0, base = 0; s < used; s++, base += stride) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += qd[d]! * rows[base + d]!;
      into[s] = dot * scales[s]!;
    }
  }
}

/**
 * Unit vectors of traces, one packed block per user, searched exhaustively: at 100,000 traces a
 * scan is ~10 M multiply-adds, fast enough that an approximate index would only cost recall.
 * Vectors are written once per trace write and never recomputed per query.
 */
export class VectorIndex {
  private readonly blocks = new Map<string, Block>();
  private readonly where = new Map<string, { user: string; slot: number }>();
  private scratch = new Float64Array(0);

  constructor(readonly dims: number) {}

  get size(): number {
    return this.where.size;
  }

  has(uid: string): boolean {
    return this.where.has(uid);
  }

  /** Store (or replace) a trace's unit vector; null removes it (nothing to compare with). */
  upsert(uid: string, userId: string, v: Float32Array | null): void {
    if (v && v.length !== this.dims) throw new Error(`vector of ${v.length} dimensions in a ${this.dims}-dimension index`);
    const at = this.where.get(uid);
    if (at && (at.user !== userId || !v)) this.remove(uid);
    if (!v) return;
    const cur = this.where.get(uid);
    let block = this.blocks.get(userId);
    if (!block) this.blocks.set(userId, (block = new Block(this.dims)));
    const slot = cur ? cur.slot : block.alloc();
    block.write(slot, v);
    block.uids[slot] = uid;
    if (!cur) this.where.set(uid, { user: userId, slot });
  }

  remove(uid: string): void {
    const at = this.where.get(uid);
    if (!at) return;
    const block = this.blocks.get(at.user)!;
    block.uids[at.slot] = undefined;
    block.scales[at.slot] = 0;
    block.free.push(at.slot);
    this.where.delete(uid);
  }

  /** Cosine similarity of one stored trace to a unit query vector (undefined when not indexed). */
  similarity(uid: string, q: Float32Array): number | undefined {
    const at = this.where.get(uid);
    if (!at) return undefined;
    const b = this.blocks.get(at.user)!;
    let dot = 0;
    const base = at.slot * b.stride;
    for (let d = 0; d < this.dims; d++) dot += q[d]! * b.rows[base + d]!;
    return dot * b.scales[at.slot]!;
  }

  /**
   * The k traces of one user most similar to the unit query vector, best first, among those
   * `accept` lets through (asked only for traces that would enter the top k).
   */
  search(userId: string, query: Float32Array, k: number, accept: (uid: string) => boolean = () => true): VectorHit[] {
    const b = this.blocks.get(userId);
    if (!b || k <= 0) return [];
    if (this.scratch.length < b.used) this.scratch = new Float64Array(Math.max(b.used, this.scratch.length * 2));
    const scores = this.scratch;
    b.scores(query, scores);
    const { scales, uids } = b;
    const top = new TopK(k);
    for (let s = 0; s < b.used; s++) {
      const score = scores[s]!;
      if (score <= top.floor || scales[s] === 0) continue;
      const uid = uids[s]!;
      if (accept(uid)) top.push({ uid, score });
    }
    return top.items.sort((x, y) => y.score - x.score || (x.uid < y.uid ? -1 : 1));
  }
}
