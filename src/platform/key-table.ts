import type { Opening } from './segmented-map.js';
import { stringHash } from './string-hash.js';

/** Slots of a new table (two Int32 each: the row plus one, and the key's hash). */
const MIN_SLOTS = 1 << 10;
/**
 * The most slots a table doubles to while serving: the doubling that reaches it moves 262,144
 * entries by their stored hashes (no key is read) and held an add 31–41 ms here; one more
 * doubling held it 118 ms. Past it a new table starts.
 */
const MAX_SLOTS = 1 << 20;
/** While a store opens (no request to hold), one table takes every key (see Opening). */
const MAX_OPENING_SLOTS = 1 << 26;

/** One open-addressed table with linear probing, filled to half its slots at most. */
class Table {
  /** Per slot: row + 1 (0: empty), then the key's hash. */
  slots: Int32Array;
  mask: number;
  count = 0;

  constructor(size: number) {
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
  }

  get size(): number {
    return this.mask + 1;
  }

  /** The slot holding `k` (hash `h`), or -1. */
  find(k: string, h: number, keyOf: (row: number) => unknown): number {
    const s = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const r = s[2 * i]!;
      if (r === 0) return -1;
      if (s[2 * i + 1] === h && keyOf(r - 1) === k) return i;
    }
  }

  insert(h: number, row: number): void {
    const s = this.slots;
    let i = h & this.mask;
    while (s[2 * i] !== 0) i = (i + 1) & this.mask;
    s[2 * i] = row + 1;
    s[2 * i + 1] = h;
    this.count++;
  }

  /** Empty slot `i`, moving up the entries after it that probed past it (no tombstones). */
  remove(i: number): void {
    const s = this.slots;
    const mask = this.mask;
    for (let j = (i + 1) & mask; s[2 * j] !== 0; j = (j + 1) & mask) {
      const home = s[2 * j + 1]! & mask;
      // The entry at j may fill the hole at i if i lies on its probe path (from home to j).
      if (((j - home) & mask) >= ((j - i) & mask)) {
        s[2 * i] = s[2 * j]!;
        s[2 * i + 1] = s[2 * j + 1]!;
        i = j;
      }
    }
    s[2 * i] = 0;
    s[2 * i + 1] = 0;
    this.count--;
  }

  /** A table of twice the slots holding the same entries (their stored hashes place them). */
  doubled(): Table {
    const t = new Table(this.size * 2);
    const s = this.slots;
    for (let i = 0; i < s.length; i += 2) if (s[i] !== 0) t.insert(s[i + 1]!, s[i]! - 1);
    return t;
  }
}

/**
 * Row numbers by string key, where the key of a row is read from the row itself (`keyOf`): the
 * table holds two Int32 per slot and no string. A collection's primary key took one JS Map
 * insert per document, which at a million traces was about a second of a store's open and 30 MB
 * more heap than this table (two to four slots of 8 bytes per key). A table doubles (its
 * entries' hashes are stored, so no key is read again) up to MAX_SLOTS while serving; past that
 * a new table starts, and a key that is not held is looked for in each (few: each holds half a
 * million keys, and the one an open fills holds them all).
 *
 * `keyOf(row)` must give the key of every row the table holds, so a caller moves a key to a new
 * row (`replace`) or removes it (`delete`) while its old row still answers.
 */
export class KeyTable {
  private tables: Table[];
  private count = 0;
  /** The table the last locate() found its key in (no object made per lookup). */
  private found?: Table;

  /** `expected`: how many keys the table will soon hold (a collection read from a file), sized for at once. */
  constructor(
    private readonly keyOf: (row: number) => unknown,
    private readonly opening?: Opening,
    expected = 0,
    private readonly limits = { min: MIN_SLOTS, max: MAX_SLOTS, opening: MAX_OPENING_SLOTS },
  ) {
    let size = limits.min;
    while (size < expected * 2 && size < (opening?.open ? limits.opening : limits.max)) size *= 2;
    this.tables = [new Table(size)];
  }

  get size(): number {
    return this.count;
  }

  /** How many tables a key that is not held is looked for in. */
  get segments(): number {
    return this.tables.length;
  }

  get(k: string): number | undefined {
    const i = this.locate(k);
    return i < 0 ? undefined : this.found!.slots[2 * i]! - 1;
  }

  /**
   * The row of `k` if it is held; if not, `k` is put at `row` (which must give `k` from now on)
   * and undefined is returned. One hash and, in the last table, one probe for both.
   */
  getOrAdd(k: string, row: number): number | undefined {
    const h = stringHash(k);
    const i = this.locate(k, h);
    if (i >= 0) return this.found!.slots[2 * i]! - 1;
    let last = this.tables[this.tables.length - 1]!;
    if ((last.count + 1) * 2 > last.size) {
      const max = this.opening?.open ? this.limits.opening : this.limits.max;
      if (last.size < max) this.tables[this.tables.length - 1] = last = last.doubled();
      else this.tables.push((last = new Table(this.limits.min)));
    }
    last.insert(h, row);
    this.count++;
    return undefined;
  }

  /** Point a held key at another row (false, and nothing changed, when it is not held). */
  replace(k: string, row: number): boolean {
    const i = this.locate(k);
    if (i < 0) return false;
    this.found!.slots[2 * i] = row + 1;
    return true;
  }

  delete(k: string): boolean {
    const i = this.locate(k);
    if (i < 0) return false;
    const table = this.found!;
    table.remove(i);
    this.count--;
    if (table.count === 0 && this.tables.length > 1) this.tables = this.tables.filter((t) => t !== table);
    return true;
  }

  /** The slot of `k` in the table it is in (left in `found`), or -1. */
  private locate(k: string, h = stringHash(k)): number {
    for (let t = this.tables.length - 1; t >= 0; t--) {
      const table = this.tables[t]!;
      const i = table.find(k, h, this.keyOf);
      if (i >= 0) {
        this.found = table;
        return i;
      }
    }
    return -1;
  }
}
