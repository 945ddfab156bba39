import { crc32 } from 'node:zlib';
import { DENSITY_K } from './neighbor-density.js';
import { bufferSource, type FileSource } from './persisted-file.js';
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

/** Bytes read at once when a row is asked for: rows asked for in file order share one read. */
const ROW_WINDOW = 1024 * 1024;

/**
 * Where each row of a checked file starts, by uid; a row is read and decoded only when asked for
 * (not 100,000 objects at once: they would outlive the fill in the heap and in RSS), through a
 * window of ROW_WINDOW bytes of the file. close() lets the file go.
 */
export class VectorFileRows {
  private window: Buffer = Buffer.alloc(0);
  private windowAt = 0;

  constructor(
    private readonly src: FileSource,
    private readonly at: Map<string, number>,
    private readonly dims: number,
  ) {}

  get size(): number {
    return this.at.size;
  }

  /**
   * The row of a uid; its components are a view that the next get() may reuse (copy them first).
   * A row the file cannot give any more (a read error) is undefined: its trace is embedded again.
   */
  get(uid: string): RawRow | undefined {
    const start = this.at.get(uid);
    if (start === undefined) return undefined;
    try {
      return this.decode(uid, start);
    } catch {
      return undefined;
    }
  }

  private decode(uid: string, start: number): RawRow {
    const { dims } = this;
    const uidLen = this.bytes(start, 2).readUInt16LE(0);
    const userLen = this.bytes(start, 4 + uidLen).readUInt16LE(2 + uidLen);
    const buf = this.bytes(start, 4 + uidLen + userLen + ROW_FIXED + dims);
    let at = 4 + uidLen;
    const userId = buf.toString('utf8', at, at + userLen);
    at += userLen;
    const tag = buf.readDoubleLE(at);
    const scale = buf.readFloatLE(at + 8);
    const n = Math.min(buf.readUInt8(at + 12), DENSITY_K);
    const density = new Float32Array(n);
    for (let i = 0; i < n; i++) density[i] = buf.readFloatLE(at + 13 + 4 * i);
    at += 13 + 4 * DENSITY_K;
    return { uid, userId, tag, scale, components: new Int8Array(buf.buffer, buf.byteOffset + at, dims), density };
  }

  /** The rows are not needed any more. */
  close(): Promise<void> {
    this.window = Buffer.alloc(0);
    return this.src.close();
  }

  /** At least `len` bytes of the file from `start` (the offsets were checked when the file was). */
  private bytes(start: number, len: number): Buffer {
    if (start < this.windowAt || start + len > this.windowAt + this.window.length) {
      this.window = this.src.readSync(start, Math.max(len, ROW_WINDOW));
      this.windowAt = start;
    }
    return this.window.subarray(start - this.windowAt);
  }
}

/** Bytes checksummed, and rows indexed, per turn of the event loop while a file is checked. */
const CRC_SLICE = 4 * 1024 * 1024;
const ROW_SLICE = 8192;
/** A row's bytes after its two strings: tag, scale, density count, densities (the components follow). */
const ROW_FIXED = 8 + 4 + 1 + 4 * DENSITY_K;

/**
 * Check a whole file before using anything: magic, format, the expected model, dimensions and
 * revision, the checksum, the row count and every row's bounds. The file is read a piece of
 * CRC_SLICE bytes at a time, twice (the checksum, then the rows), with a turn of the event loop
 * (`pause`) between pieces: neither the file nor a check of it in one turn is ever held whole.
 * A source that is rejected is closed; the rows returned own it.
 */
export async function decodeVectorFile(source: FileSource | Buffer, expect: VectorFileHeader, pause: () => Promise<void>): Promise<DecodedVectors> {
  const src = Buffer.isBuffer(source) ? bufferSource(source) : source;
  const d = await decode(src, expect, pause).catch((e: Error) => ({ rejected: `unreadable: ${e.message}` }));
  if ('rejected' in d) await src.close();
  return d;
}

async function decode(src: FileSource, expect: VectorFileHeader, pause: () => Promise<void>): Promise<DecodedVectors> {
  const size = src.size;
  if (size < 20) return { rejected: 'not a vector file' };
  const start = await src.read(0, 12);
  if (!start.subarray(0, 4).equals(MAGIC)) return { rejected: 'not a vector file' };
  if (start.readUInt32LE(4) !== VECTOR_FILE_FORMAT) return { rejected: `format ${start.readUInt32LE(4)}, not ${VECTOR_FILE_FORMAT}` };
  const headLen = start.readUInt32LE(8);
  if (12 + headLen + 8 > size) return { rejected: 'truncated' };
  const trailer = await src.read(size - 8, 8);
  const crc = trailer.readUInt32LE(4);
  let sum = 0;
  for (let at = 0; at < size - 4; at += CRC_SLICE) {
    if (at) await pause();
    sum = crc32(await src.read(at, Math.min(size - 4, at + CRC_SLICE) - at), sum);
  }
  if (sum >>> 0 !== crc) return { rejected: 'checksum mismatch (truncated or damaged)' };
  let header: VectorFileHeader;
  try {
    header = JSON.parse((await src.read(12, headLen)).toString('utf8'));
  } catch {
    return { rejected: 'unreadable header' };
  }
  for (const k of ['model', 'dims', 'revision'] as const) {
    if (header[k] !== expect[k]) return { rejected: `made for ${k} ${String(header[k])}, not ${String(expect[k])}` };
  }
  const end = size - 8;
  const count = trailer.readUInt32LE(0);
  const fixed = ROW_FIXED + expect.dims;
  const rows = new Map<string, number>();
  // The rows are read a piece at a time; a row that runs past a piece starts the next one.
  let piece: Buffer = Buffer.alloc(0);
  let pieceAt = 0;
  const bytes = async (at: number, len: number): Promise<Buffer> => {
    if (at + len > end) throw new Error('string past the end');
    if (at + len > pieceAt + piece.length) {
      piece = await src.read(at, Math.min(end - at, Math.max(len, CRC_SLICE)));
      pieceAt = at;
    }
    return piece.subarray(at - pieceAt);
  };
  let at = 12 + headLen;
  try {
    for (let n = 1; at < end; n++) {
      if (n % ROW_SLICE === 0) await pause();
      const rowAt = at;
      const uidLen = (await bytes(at, 2)).readUInt16LE(0);
      const uid = (await bytes(at, 2 + uidLen)).toString('utf8', 2, 2 + uidLen);
      at += 2 + uidLen;
      at += 2 + (await bytes(at, 2)).readUInt16LE(0);
      if (at + fixed > end) throw new Error('row past the end');
      at += fixed;
      rows.set(uid, rowAt);
    }
  } catch (e) {
    return { rejected: `damaged row: ${(e as Error).message}` };
  }
  if (rows.size !== count) return { rejected: `${rows.size} rows, the trailer says ${count}` };
  return { rows: new VectorFileRows(src, rows, expect.dims) };
}
