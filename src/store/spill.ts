import { closeSync, openSync, readSync } from 'node:fs';
import type { Doc } from './schema.js';

/**
 * A string this long or longer is not kept in the JS heap once it is on disk: the document holds
 * where its JSON text lies in db.json or a journal segment, and reads it back when asked.
 */
export const SPILL_MIN_CHARS = 4096;

/** The descriptor of a large string: closed when no document refers to the file any more. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed (the process is ending).
  }
});

/**
 * A file the store has written and never writes again at the bytes documents point to (db.json is
 * replaced by a rename, a journal segment is appended to): documents read their large strings
 * from it through one read-only descriptor. The descriptor keeps the file's bytes even after a
 * snapshot renames over db.json or retires the segment; once no document points into the file,
 * it is closed and the disk space is free.
 */
export class TextFile {
  private readonly fd: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    closer.register(this, this.fd);
  }

  /** The string whose JSON text is `length` bytes at `offset`. */
  read(offset: number, length: number): string {
    return JSON.parse(this.bytes(offset, length).toString('utf8')) as string;
  }

  /** The `length` bytes at `offset`. */
  bytes(offset: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, offset + done);
      if (n <= 0) throw new Error(`${this.path}: a stored text ends early (byte ${offset + done})`);
      done += n;
    }
    return buf;
  }
}

/** Where a document's JSON text lies in a file: the line (or record) and the byte it starts at. */
export interface Place {
  file: () => TextFile;
  text: string;
  offset: number;
}

/**
 * A frozen copy of `doc` in which every string of SPILL_MIN_CHARS or more is read from `place`
 * on demand (an enumerable getter: JSON.stringify, spreads, structuredClone and plain reads see
 * the same value). The place's text must hold the document's JSON; a string not found in it (a
 * file laid out by hand in some other escaping) stays in memory. Returns `doc` itself when it
 * holds no such string. Reading `doc`'s own large strings (getters of an earlier copy) reads them
 * once, here.
 */
export function spill<T extends Doc>(doc: T, place: Place): T {
  if (place.text.length < SPILL_MIN_CHARS) return doc;
  let found = false;
  let from = 0;
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length < SPILL_MIN_CHARS) return v;
      const json = JSON.stringify(v);
      // The strings appear in the text in the order they are walked; a repeat is the same bytes.
      let at = place.text.indexOf(json, from);
      if (at < 0) at = place.text.indexOf(json);
      if (at < 0) return v;
      from = at + json.length;
      found = true;
      const offset = place.offset + Buffer.byteLength(place.text.slice(0, at));
      const length = Buffer.byteLength(json);
      return new Lazy(reader(place.file(), offset, length));
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return Object.freeze(v.map((x) => unwrap(copy(x))));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = copy((v as Record<string, unknown>)[k]);
      if (x instanceof Lazy) Object.defineProperty(out, k, { get: x.get, enumerable: true, configurable: false });
      else out[k] = x;
    }
    return Object.freeze(out);
  };
  const out = copy(doc) as T;
  return found ? out : doc;
}

/**
 * The getter, made outside spill: a closure made inside it would keep spill's scope, and with it
 * the whole line the string was found in.
 */
function reader(file: TextFile, offset: number, length: number): () => string {
  return () => file.read(offset, length);
}

/** An array element cannot be a getter on a frozen array: a large string in an array stays in memory. */
function unwrap(x: unknown): unknown {
  return x instanceof Lazy ? x.get() : x;
}

/** A string found in the place, while its copy is built. */
class Lazy {
  constructor(readonly get: () => string) {}
}

/** A TextFile opened at the first large string that needs it. */
export function lazyFile(path: string): () => TextFile {
  let f: TextFile | undefined;
  return () => (f ??= new TextFile(path));
}
