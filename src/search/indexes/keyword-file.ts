import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import type { FileSource } from './persisted-file.js';

/**
 * The keyword index persisted beside the store (`<home>/search/keyword-index.bin`), so that a
 * start takes each trace's terms from it instead of splitting and stemming a million texts
 * again. Layout (little-endian):
 *
 *   "KKWD" · u32 format · u32 header length · header (JSON: revision)
 *   blocks: u32 payload length · u32 CRC-32 of the payload · payload
 *     payload: u32 new terms · (u32 length · utf8 · pad) each, numbered on from the block before
 *              · u32 rows · rows: u16 uid length · uid · pad · f64 tag · f64 length
 *              · u32 terms · u32 term number × terms · f32 weight × terms
 *     (pad: zeros up to a multiple of 4 bytes from the payload's start, so that a reader takes a
 *     row's terms as views of the block it read, without copying them)
 *
 * Each block is checked before any of its rows is used, so a start reads the file a block at a
 * time (never whole). A row is used only while its trace still has the tag (keywordTag: a hash
 * of its owner, space and indexed fields), so a file written before later writes is still safe:
 * what changed since is indexed again. A file of another format or revision is ignored, and so
 * is the rest of one from a damaged block on.
 */
export const KEYWORD_FILE_FORMAT = 1;
/** Bump when what a trace's terms are made of changes (tokenizing, stemming, stop words, field weights): old files are then rebuilt. */
export const KEYWORD_REVISION = 1;

const MAGIC = Buffer.from('KKWD', 'latin1');
/** The largest block a reader takes (a block holds a few thousand rows; more is a damaged length). */
const MAX_BLOCK = 256 * 1024 * 1024;
/** Typed arrays read the machine's byte order: views of the file's bytes only where that is the file's. */
const LITTLE_ENDIAN = endianness() === 'LE';
const pad4 = (n: number) => (n + 3) & ~3;

/** One trace's entry: its terms as numbers of the file's dictionary, and their weights. */
export interface KeywordRow {
  uid: string;
  tag: number;
  len: number;
  ids: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

export function encodeKeywordHead(): Buffer {
  const json = Buffer.from(JSON.stringify({ revision: KEYWORD_REVISION }), 'utf8');
  const head = Buffer.alloc(12);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(KEYWORD_FILE_FORMAT, 4);
  head.writeUInt32LE(json.length, 8);
  return Buffer.concat([head, json]);
}

/** A block: the terms first used in it, then its rows. */
export function encodeKeywordBlock(terms: string[], rows: KeywordRow[]): Buffer {
  const termBytes = terms.map((t) => Buffer.from(t, 'utf8'));
  const uidBytes = rows.map((r) => Buffer.from(r.uid, 'utf8'));
  // Offsets from the payload's start (8 bytes in), where the padding counts from.
  let size = 4;
  for (const b of termBytes) size = pad4(size + 4 + b.length);
  size += 4;
  rows.forEach((r, i) => (size = pad4(size + 2 + uidBytes[i]!.length) + 8 + 8 + 4 + 8 * r.ids.length));
  size += 8;
  const b = Buffer.alloc(size);
  let at = 8;
  const pad = () => (at = 8 + pad4(at - 8));
  at = b.writeUInt32LE(terms.length, at);
  for (const t of termBytes) {
    at = b.writeUInt32LE(t.length, at);
    at += t.copy(b, at);
    pad();
  }
  at = b.writeUInt32LE(rows.length, at);
  rows.forEach((r, i) => {
    const uid = uidBytes[i]!;
    at = b.writeUInt16LE(uid.length, at);
    at += uid.copy(b, at);
    pad();
    at = b.writeDoubleLE(r.tag, at);
    at = b.writeDoubleLE(r.len, at);
    at = b.writeUInt32LE(r.ids.length, at);
    for (let k = 0; k < r.ids.length; k++) at = b.writeUInt32LE(r.ids[k]!, at);
    for (let k = 0; k < r.tfs.length; k++) at = b.writeFloatLE(r.tfs[k]!, at);
  });
  b.writeUInt32LE(size - 8, 0);
  b.writeUInt32LE(crc32(b.subarray(8)) >>> 0, 4);
  return b;
}

/** A file's blocks, read one at a time and checked before they are given out. */
export class KeywordFileReader {
  private at = 0;
  /**
   * Where blocks are read, one after another: a new buffer per block (a few hundred KB each,
   * 160 MB for a million traces) counted towards the engine's next full collection of the heap.
   */
  private scratch = Buffer.alloc(0);

  private constructor(private readonly src: FileSource) {}

  /** A reader past the file's head, or why the file cannot be used. */
  static open(src: FileSource): KeywordFileReader | { rejected: string } {
    if (src.size < 12) return { rejected: 'not a keyword index file' };
    const start = src.readSync(0, 12);
    if (start.length < 12 || !start.subarray(0, 4).equals(MAGIC)) return { rejected: 'not a keyword index file' };
    if (start.readUInt32LE(4) !== KEYWORD_FILE_FORMAT) return { rejected: `format ${start.readUInt32LE(4)}, not ${KEYWORD_FILE_FORMAT}` };
    const headLen = start.readUInt32LE(8);
    if (12 + headLen > src.size) return { rejected: 'truncated' };
    let revision: unknown;
    try {
      revision = JSON.parse(src.readSync(12, headLen).toString('utf8')).revision;
    } catch {
      return { rejected: 'unreadable header' };
    }
    if (revision !== KEYWORD_REVISION) return { rejected: `made for revision ${String(revision)}, not ${KEYWORD_REVISION}` };
    const reader = new KeywordFileReader(src);
    reader.at = 12 + headLen;
    return reader;
  }

  /**
   * The next block (null: the file is over), or why it cannot be used (the rest of the file is
   * then not read). Its rows' terms may be views of the reader's buffer: they hold until the next call.
   */
  next(): { terms: string[]; rows: KeywordRow[] } | null | { rejected: string } {
    if (this.at >= this.src.size) return null;
    const head = this.src.readSync(this.at, 8);
    if (head.length < 8) return { rejected: 'truncated block' };
    const len = head.readUInt32LE(0);
    if (len > MAX_BLOCK || this.at + 8 + len > this.src.size) return { rejected: 'truncated or damaged block' };
    // A buffer of its own (not a slice of the pool) starts at offset 0: rows' terms can be views of it.
    if (this.scratch.length < len) this.scratch = Buffer.allocUnsafeSlow(Math.max(len, 2 * this.scratch.length));
    const p = this.src.readSync(this.at + 8, len, this.scratch);
    if (p.length < len || crc32(p) >>> 0 !== head.readUInt32LE(4)) return { rejected: 'checksum mismatch (damaged block)' };
    this.at += 8 + len;
    try {
      return decodeBlock(p);
    } catch (e) {
      return { rejected: `damaged block: ${(e as Error).message}` };
    }
  }

  close(): Promise<void> {
    return this.src.close();
  }
}

function decodeBlock(p: Buffer): { terms: string[]; rows: KeywordRow[] } {
  let at = 0;
  const need = (n: number) => {
    if (at + n > p.length) throw new Error('past the end');
  };
  // A row's terms are views of the block where the bytes allow it (the usual case), else copies.
  const views = LITTLE_ENDIAN && (p.byteOffset & 3) === 0;
  need(4);
  const nTerms = p.readUInt32LE(at);
  at += 4;
  const terms: string[] = [];
  for (let i = 0; i < nTerms; i++) {
    need(4);
    const len = p.readUInt32LE(at);
    need(4 + len);
    terms.push(p.toString('utf8', at + 4, at + 4 + len));
    at = pad4(at + 4 + len);
  }
  need(4);
  const nRows = p.readUInt32LE(at);
  at += 4;
  const rows: KeywordRow[] = [];
  for (let i = 0; i < nRows; i++) {
    need(2);
    const uidLen = p.readUInt16LE(at);
    need(2 + uidLen);
    const uid = p.toString('utf8', at + 2, at + 2 + uidLen);
    at = pad4(at + 2 + uidLen);
    need(20);
    const tag = p.readDoubleLE(at);
    const len = p.readDoubleLE(at + 8);
    const n = p.readUInt32LE(at + 16);
    at += 20;
    need(8 * n);
    let ids: Uint32Array;
    let tfs: Float32Array;
    if (views) {
      ids = new Uint32Array(p.buffer, p.byteOffset + at, n);
      tfs = new Float32Array(p.buffer, p.byteOffset + at + 4 * n, n);
    } else {
      ids = new Uint32Array(n);
      tfs = new Float32Array(n);
      for (let k = 0; k < n; k++) ids[k] = p.readUInt32LE(at + 4 * k);
      for (let k = 0; k < n; k++) tfs[k] = p.readFloatLE(at + 4 * (n + k));
    }
    at += 8 * n;
    rows.push({ uid, tag, len, ids, tfs });
  }
  if (at !== p.length) throw new Error('bytes after the last row');
  return { terms, rows };
}
