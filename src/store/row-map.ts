import { stat } from 'node:fs/promises';
import { endianness } from 'node:os';
import { writeFileDurableWith } from '../platform/durable-write.js';
import { forEachLine } from './lines.js';
import { COLLECTION_NAMES, COLLECTIONS, type CollectionName, type Doc } from './schema.js';

/**
 * db.json's row map (`db.json.rows`): where each document of the snapshot lies in db.json, with
 * its key and index values, and the identity of the db.json it describes. A start whose db.json
 * is still that very file (same inode, size, mtime and ctime: any write, copy or rename over it
 * changes one of them) builds the collections' keys and indexes from the map alone and reads each
 * document from db.json when it is first asked for, or in the background (see Indexed.putCold):
 * parsing a million documents before answering was most of a start's time. Any other db.json,
 * a map cut short, or one of another layout is read whole as before, so a damaged db.json is
 * still refused at the start. The map is the snapshot's own by-product; a person never needs it.
 */

const LAYOUT = 2;
/** Rows per line of the map: no line nears V8's string limit, and a snapshot writes one a turn. */
const ROWS_PER_LINE = 1 << 12;
/** The longest line the map is read with (a line of 65,536 keys of the API's longest ids fits). */
const MAX_LINE_BYTES = 256 * 2 ** 20;

/** What of db.json says it is the same file. */
interface Identity {
  dev: string;
  ino: string;
  size: string;
  mtime: string;
  ctime: string;
}

async function identityOf(path: string): Promise<Identity | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    return { dev: String(s.dev), ino: String(s.ino), size: String(s.size), mtime: String(s.mtimeNs), ctime: String(s.ctimeNs) };
  } catch {
    return undefined;
  }
}

const sameIdentity = (a: Identity, b: Identity) => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime;

/** What db.json holds besides its documents. */
export interface RowMapHead {
  schema_version: number;
  journal_seq: number;
  meta: Record<string, unknown>;
}

/** One collection's rows: in db.json's order, each document's key, index values, byte offset and length. */
export interface MappedRows {
  keys: string[];
  at: Float64Array;
  len: Int32Array;
  /** Per index: the row's value is values[codes[row]] (none when the code is -1). */
  index: Record<string, { values: unknown[]; codes: Int32Array }>;
}

export interface RowMap extends RowMapHead {
  bytes: number;
  collections: Record<CollectionName, MappedRows>;
}

/** Gathers what a snapshot writes, then writes the map once db.json is in place. */
export class RowMapBuilder {
  private readonly docs = new Map<CollectionName, { docs: Doc[]; at: number[]; len: number[] }>();

  /** `doc` is written at byte `offset` of db.json, `bytes` long. */
  add(c: CollectionName, doc: Doc, offset: number, bytes: number): void {
    let col = this.docs.get(c);
    if (!col) this.docs.set(c, (col = { docs: [], at: [], len: [] }));
    col.docs.push(doc);
    col.at.push(offset);
    col.len.push(bytes);
  }

  /**
   * Write the map of `db` (just renamed into place) for `head`. A turn of the event loop per
   * line; a failure, or `signal` (a stop), leaves the map as it was, which no longer matches db.json.
   */
  async write(mapPath: string, db: string, head: RowMapHead, signal?: AbortSignal): Promise<void> {
    const identity = await identityOf(db);
    if (!identity) return;
    const counts = Object.fromEntries(COLLECTION_NAMES.map((c) => [c, this.docs.get(c)?.docs.length ?? 0]));
    await writeFileDurableWith(mapPath, async (write) => {
      await write(`${JSON.stringify({ kairos_row_map: LAYOUT, endianness: endianness(), db: identity, counts, ...head })}\n`);
      let rows = 0;
      for (const c of COLLECTION_NAMES) {
        const col = this.docs.get(c);
        if (!col) continue;
        const { key, indexes } = COLLECTIONS[c];
        for (let from = 0; from < col.docs.length; from += ROWS_PER_LINE) {
          const docs = col.docs.slice(from, from + ROWS_PER_LINE);
          const index: Record<string, { values: unknown[]; codes: string }> = {};
          for (const name of indexes) {
            const values: unknown[] = [];
            const codeOf = new Map<unknown, number>();
            const codes = new Int32Array(docs.length);
            docs.forEach((d, i) => {
              const v = d[name];
              if (v === undefined || v === null) return void (codes[i] = -1);
              let code = codeOf.get(v);
              if (code === undefined) codeOf.set(v, (code = values.push(v) - 1));
              codes[i] = code;
            });
            index[name] = { values, codes: base64(codes) };
          }
          // The keys as one string and where each ends: parsing a JSON array of a million strings
          // was a third of a start's reading of the map.
          const keys = docs.map((d) => d[key] as string);
          const ends = new Int32Array(keys.length);
          let end = 0;
          keys.forEach((k, i) => void (ends[i] = end += k.length));
          const line = {
            c,
            keys: keys.join(''),
            ends: base64(ends),
            at: base64(Float64Array.from(col.at.slice(from, from + ROWS_PER_LINE))),
            len: base64(Int32Array.from(col.len.slice(from, from + ROWS_PER_LINE))),
            index,
          };
          rows += docs.length;
          await write(`${JSON.stringify(line)}\n`);
          await new Promise((ok) => setImmediate(ok));
          signal?.throwIfAborted();
        }
      }
      await write(`${JSON.stringify({ end: rows })}\n`);
    });
  }
}

function base64(a: Float64Array | Int32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

/** `b64`'s bytes into `into` at element `at` (false when they are not a whole number of elements that fit). */
function unbase64(b64: unknown, into: Float64Array | Int32Array, at: number, count: number): boolean {
  if (typeof b64 !== 'string') return false;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length !== count * into.BYTES_PER_ELEMENT || at + count > into.length) return false;
  new Uint8Array(into.buffer, into.byteOffset + at * into.BYTES_PER_ELEMENT, bytes.length).set(bytes);
  return true;
}

/**
 * The map of `db` as it is now, or undefined when there is none, it describes another file (or
 * another version of it), or it is not whole: the caller then reads db.json itself.
 */
export async function readRowMap(mapPath: string, db: string): Promise<RowMap | undefined> {
  const identity = await identityOf(db);
  if (!identity) return undefined;
  let head: (RowMapHead & { counts: Record<string, number>; db: Identity }) | undefined;
  const cols = {} as Record<CollectionName, MappedRows>;
  const filled: Record<string, number> = {};
  let ended = false;
  const bad = new Error('not this map');
  try {
    await forEachLine(mapPath, MAX_LINE_BYTES, (text) => {
      if (ended) throw bad;
      const line = JSON.parse(text) as Record<string, unknown>;
      if (!head) {
        if (line.kairos_row_map !== LAYOUT || line.endianness !== endianness() || !sameIdentity(line.db as Identity, identity)) throw bad;
        head = line as unknown as typeof head;
        for (const c of COLLECTION_NAMES) {
          const n = head!.counts[c] ?? 0;
          if (!Number.isSafeInteger(n) || n < 0) throw bad;
          cols[c] = { keys: [], at: new Float64Array(n), len: new Int32Array(n), index: {} };
          for (const name of COLLECTIONS[c].indexes) cols[c].index[name] = { values: [], codes: new Int32Array(n) };
          filled[c] = 0;
        }
        return;
      }
      if ('end' in line) {
        ended = true;
        return;
      }
      const c = line.c as CollectionName;
      const col = cols[c];
      const keys = line.keys;
      if (!col || typeof keys !== 'string' || typeof line.ends !== 'string') throw bad;
      const n = Buffer.byteLength(line.ends, 'base64') >> 2;
      const ends = new Int32Array(n);
      const at = filled[c]!;
      if (!unbase64(line.ends, ends, 0, n) || !unbase64(line.at, col.at, at, n) || !unbase64(line.len, col.len, at, n)) throw bad;
      for (const name of COLLECTIONS[c].indexes) {
        const got = (line.index as Record<string, { values: unknown[]; codes: unknown }> | undefined)?.[name];
        const mine = col.index[name]!;
        if (!got || !Array.isArray(got.values) || !unbase64(got.codes, mine.codes, at, n)) throw bad;
        // Codes of this line count from where its values go in the collection's list.
        const base = mine.values.length;
        for (let i = at; i < at + n; i++) {
          const code = mine.codes[i]!;
          if (code >= got.values.length) throw bad;
          if (code >= 0) mine.codes[i] = code + base;
        }
        for (const v of got.values) mine.values.push(v);
      }
      // Slices of the line's string: it is let go of once every row is read (see Indexed.putCold).
      let from = 0;
      for (let i = 0; i < n; i++) {
        const end = ends[i]!;
        if (end < from || end > keys.length) throw bad;
        col.keys.push(keys.slice(from, end));
        from = end;
      }
      if (from !== keys.length) throw bad;
      filled[c] = at + n;
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e === bad || e instanceof SyntaxError) return undefined;
    throw e;
  }
  if (!head || !ended) return undefined;
  for (const c of COLLECTION_NAMES) if (filled[c] !== cols[c].at.length) return undefined;
  return { schema_version: head.schema_version, journal_seq: head.journal_seq, meta: head.meta, bytes: Number(identity.size), collections: cols };
}
