import { crc32 } from 'node:zlib';
import { DENSITY_K } from './neighbor-density.js';
import type { RawRow } from './vector-index.js';

/**
 * The built-in model's vectors of every trace, persisted beside the store
 * (`<home>/search/builtin-vectors.bin`) so that a start loads them instead of embedding and
 * measuring 100,000 traces again. Layout (little-endian):
 *
 *   "KVEC" · u32 format · u32 header length · header (JSON: model, dims, revision)
 *   rows: u16 uid length · uid · u16 user length · user · f64 tag · f32 scale
 *         · u8 density count · f32 × DENSITY_K · i8 × dims
 *   trailer: u32 row count · u32 CRC-32 of everything before it
 *
 * A row is reused only when its trace still has the same owner and text (the tag is a hash of
 * the embedded text), so a file written before later writes is still safe: what changed since is
 * embedded again. A file of another model, format or revision, or with a bad checksum, is ignored.
 */
export const VECTOR_FILE_FORMAT = 1;
/**
 * Bump when what a vector is made of changes without the model's name changing (the embedder's
 * pooling, the tokenizer, traceText, the quantisation): old files are then rebuilt.
 */
export const VECTORS_REVISION = 1;

const MAGIC = Buffer.from('KVEC', 'latin1');

export interface VectorFileHeader {
  model: string;
  dims: number;
  revision: number;
}

/** The fixed part of the file before the rows. */
export function encodeHead(h: VectorFileHeader): Buffer {
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  const head = Buffer.alloc(12);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(VECTOR_FILE_FORMAT, 4);
  head.writeUInt32LE(json.length, 8);
  return Buffer.concat([head, json]);
}

/** Rows, encoded into one buffer (a slice of the index at a time). */
export function encodeRows(rows: RawRow[], dims: number): Buffer {
  let size = 0;
  for (const r of rows) size += 2 + Buffer.byteLength(r.uid) + 2 + Buffer.byteLength(r.userId) + 8 + 4 + 1 + 4 * DENSITY_K + dims;
  const b = Buffer.alloc(size);
  let at = 0;
  for (const r of rows) {
    at = writeString(b, at, r.uid);
    at = writeString(b, at, r.userId);
    at = b.writeDoubleLE(r.tag, at);
    at = b.writeFloatLE(r.scale, at);
    const n = Math.min(r.density.length, DENSITY_K);
    at = b.writeUInt8(n, at);
    for (let i = 0; i < DENSITY_K; i++) at = b.writeFloatLE(i < n ? r.density[i]! : 0, at);
    b.set(new Uint8Array(r.components.buffer, r.components.byteOffset, dims), at);
    at += dims;
  }
  return b;
}

/** The trailer: how many rows, and the checksum of everything before it (`crc` so far). */
export function encodeTrailer(rows: number, crc: number): Buffer {
  const t = Buffer.alloc(8);
  t.writeUInt32LE(rows, 0);
  t.writeUInt32LE(crc >>> 0, 4);
  return t;
}

function writeString(b: Buffer, at: number, s: string): number {
  const len = b.write(s, at + 2, 'utf8');
  b.writeUInt16LE(len, at);
  return at + 2 + len;
}

/** The rows of a sound file, read on demand (a start takes each once), or why the file cannot be used. */
export type DecodedVectors = { rows: VectorFileRows } | { rejected: string };

/**
 * Where each row of a checked file starts, by uid; a row is decoded only when asked for. (Not
 * 100,000 objects at once: they would outlive the fill in the heap and in RSS.)
 */
export class VectorFileRows {
  constructor(
    private readonly buf: Buffer,
    private readonly at: Map<string, number>,
    private readonly dims: number,
  ) {}

  get size(): number {
    return this.at.size;
  }

  /** The row of `uid`; its components are a view into the file (copied by loadRaw). */
  get(uid: string): RawRow | undefined {
    const start = this.at.get(uid);
    if (start === undefined) return undefined;
    const { buf, dims } = this;
    let at = start + 2 + buf.readUInt16LE(start);
    const userLen = buf.readUInt16LE(at);
    const userId = buf.toString('utf8', at + 2, at + 2 + userLen);
    at += 2 + userLen;
    const tag = buf.readDoubleLE(at);
    const scale = buf.readFloatLE(at + 8);
    const n = Math.min(buf.readUInt8(at + 12), DENSITY_K);
    const density = new Float32Array(n);
    for (let i = 0; i < n; i++) density[i] = buf.readFloatLE(at + 13 + 4 * i);
    at += 13 + 4 * DENSITY_K;
    return { uid, userId, tag, scale, components: new Int8Array(buf.buffer, buf.byteOffset + at, dims), density };
  }
}

/** Bytes checksummed, and rows indexed, per turn of the event loop while a file is checked. */
const CRC_SLICE = 4 * 1024 * 1024;
const ROW_SLICE = 8192;

/**
 * Check a whole file before using anything: magic, format, the expected model, dimensions and
 * revision, the checksum, the row count and every row's bounds. The checksum and the rows are
 * taken a slice per turn (`pause` between them): the whole check of a large index in one turn
 * would hold the event loop too long.
 */
export async function decodeVectorFile(buf: Buffer, expect: VectorFileHeader, pause: () => Promise<void>): Promise<DecodedVectors> {
  if (buf.length < 20 || !buf.subarray(0, 4).equals(MAGIC)) return { rejected: 'not a vector file' };
  if (buf.readUInt32LE(4) !== VECTOR_FILE_FORMAT) return { rejected: `format ${buf.readUInt32LE(4)}, not ${VECTOR_FILE_FORMAT}` };
  const headLen = buf.readUInt32LE(8);
  if (12 + headLen + 8 > buf.length) return { rejected: 'truncated' };
  const crc = buf.readUInt32LE(buf.length - 4);
  let sum = 0;
  for (let at = 0; at < buf.length - 4; at += CRC_SLICE) {
    if (at) await pause();
    sum = crc32(buf.subarray(at, Math.min(buf.length - 4, at + CRC_SLICE)), sum);
  }
  if (sum >>> 0 !== crc) return { rejected: 'checksum mismatch (truncated or damaged)' };
  let header: VectorFileHeader;
  try {
    header = JSON.parse(buf.toString('utf8', 12, 12 + headLen));
  } catch {
    return { rejected: 'unreadable header' };
  }
  for (const k of ['model', 'dims', 'revision'] as const) {
    if (header[k] !== expect[k]) return { rejected: `made for ${k} ${String(header[k])}, not ${String(expect[k])}` };
  }
  const end = buf.length - 8;
  const count = buf.readUInt32LE(end);
  const fixed = 8 + 4 + 1 + 4 * DENSITY_K + expect.dims;
  const rows = new Map<string, number>();
  let at = 12 + headLen;
  try {
    for (let n = 1; at < end; n++) {
      if (n % ROW_SLICE === 0) await pause();
      const start = at;
      const uid = readString(buf, at, end);
      at += 2 + uid.bytes;
      at += 2 + readString(buf, at, end).bytes;
      if (at + fixed > end) throw new Error('row past the end');
      at += fixed;
      rows.set(uid.value, start);
    }
  } catch (e) {
    return { rejected: `damaged row: ${(e as Error).message}` };
  }
  if (rows.size !== count) return { rejected: `${rows.size} rows, the trailer says ${count}` };
  return { rows: new VectorFileRows(buf, rows, expect.dims) };
}

function readString(buf: Buffer, at: number, end: number): { value: string; bytes: number } {
  if (at + 2 > end) throw new Error('string past the end');
  const bytes = buf.readUInt16LE(at);
  if (at + 2 + bytes > end) throw new Error('string past the end');
  return { value: buf.toString('utf8', at + 2, at + 2 + bytes), bytes };
}

/**
 * A 53-bit hash of a text (cyrb53): what a persisted row was embedded from. Two different texts
 * of the same trace share one with a chance of about 2⁻⁵³.
 */
export function textHash(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
