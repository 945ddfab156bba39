import { stringHash } from '../platform/string-hash.js';
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
 * bounded (a value pushes out the one in its place) so unique values (uids) cannot grow it;
 * values that repeat are back in it at their next occurrence. A collection's primary key cannot
 * repeat and stays out of the table, where it would only cost a lookup and push out what does. A
 * timestamp equal to an earlier field of the same document (`updated_at` and `created_at`) takes
 * that field's string without a lookup; others go through the table (one import or transaction
 * shares its instants).
 */
export class Interner {
  /**
   * A cache with one place per hash of a value: a value takes its place from whatever held it.
   * A Map cleared when full cost ~200 ns a value at a million traces (a miss inserts, and the Map
   * grew again after each clear); this costs a hash of the characters and one comparison.
   */
  private readonly slots: (string | undefined)[];
  /**
   * The last value interned at each field position: documents of a collection come in one key
   * order, and most short fields hold what the document before held (its user, its author, its
   * type), which a string comparison finds without hashing.
   */
  private readonly last: (string | undefined)[] = [];

  /** `size`: places in the cache, a power of two. */
  constructor(size = 16_384) {
    this.slots = new Array<string | undefined>(size).fill(undefined);
  }

  str(s: string): string {
    const at = stringHash(s) & (this.slots.length - 1);
    const hit = this.slots[at];
    if (hit === s) return hit;
    this.slots[at] = s;
    return s;
  }

  /**
   * Replace, in place, a document's top-level short strings by their interned copies and its
   * empty arrays by one shared frozen array, leaving its primary key (the field `key`) alone.
   * Only for a document nobody else holds yet (just parsed or cloned, not frozen): the values
   * are equal, so no reader can tell.
   */
  doc(doc: Doc, key?: string): void {
    const keys = Object.keys(doc);
    const last = this.last;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = doc[k];
      if (typeof v === 'string') {
        if (v.length > MAX_LENGTH || k === key) continue;
        const before = last[i];
        if (v === before) {
          doc[k] = before;
          continue;
        }
        const s = (isTimestamp(v) && sameIn(doc, keys, i, v)) || this.str(v);
        doc[k] = s;
        last[i] = s;
      } else if (Array.isArray(v) && v.length === 0 && v !== EMPTY) doc[k] = EMPTY;
    }
  }
}

/** `2026-11-28T08:00:00.000Z` and the like: the shape of every instant the store keeps. */
function isTimestamp(s: string): boolean {
  return s.length >= 20 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(10) === 84;
}

/** The string of the first field before `keys[upTo]` equal to `v`, if any. */
function sameIn(doc: Doc, keys: string[], upTo: number, v: string): string | undefined {
  for (let j = 0; j < upTo; j++) if (doc[keys[j]!] === v) return doc[keys[j]!] as string;
  return undefined;
}
