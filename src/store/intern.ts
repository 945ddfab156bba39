import type { Doc } from './schema.js';

/** The one empty array every document may share (documents are frozen, so nobody can fill it). */
const EMPTY: readonly unknown[] = Object.freeze([]);

/** Strings longer than this are rarely repeated (contents, notes); interning them would only cost lookups. */
const MAX_LENGTH = 40;

/**
 * One copy of each short string value seen recently, for the documents the store keeps in memory.
 * JSON.parse and structuredClone give every occurrence of a value its own string: at 100,000
 * traces a user id held by every trace and history row, `created_at` equal to `updated_at` and
 * to the history row's timestamp, each cost ~50 bytes a copy, tens of MB in all. The table is
 * bounded (cleared when full) so unique values (uids) cannot grow it; values that repeat are
 * back in it at their next occurrence.
 */
export class Interner {
  private seen = new Map<string, string>();

  constructor(private readonly max = 8192) {}

  str(s: string): string {
    const hit = this.seen.get(s);
    if (hit !== undefined) return hit;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.set(s, s);
    return s;
  }

  /**
   * Replace, in place, a document's top-level short strings by their interned copies and its
   * empty arrays by one shared frozen array. Only for a document nobody else holds yet (just
   * parsed or cloned, not frozen): the values are equal, so no reader can tell.
   */
  doc(doc: Doc): void {
    for (const k of Object.keys(doc)) {
      const v = doc[k];
      if (typeof v === 'string') {
        if (v.length <= MAX_LENGTH) doc[k] = this.str(v);
      } else if (Array.isArray(v) && v.length === 0 && v !== EMPTY) doc[k] = EMPTY;
    }
  }
}
