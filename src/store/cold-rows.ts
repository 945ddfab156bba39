import type { Thaw } from './indexed.js';
import type { MappedRows } from './row-map.js';
import type { Doc } from './schema.js';
import type { TextFile } from './spill.js';

/**
 * Cold rows read per read: the rows after the one asked for are usually asked for next (the
 * background warming, a listing in store order), and one read of a few hundred KB costs about
 * what one of a single document does.
 */
const BLOCK_ROWS = 256;
const BLOCK_BYTES = 256 * 1024;

/**
 * Reads a collection's cold rows from db.json as its row map places them: row r (put cold in an
 * empty collection, so its number is its place in the map) is `rows.len[r]` bytes at
 * `rows.at[r]`. `parse` makes the document of its JSON text and byte offset. `file` is db.json
 * as it was opened: a snapshot renaming a new db.json over it later does not move the bytes.
 */
export function thawFrom(file: TextFile, rows: Pick<MappedRows, 'at' | 'len'>, parse: (json: string, offset: number) => Doc): Thaw {
  const { at, len } = rows;
  return (r, isCold, warm) => {
    const from = at[r]!;
    let end = r + 1;
    while (end < at.length && end - r < BLOCK_ROWS && isCold(end) && at[end]! + len[end]! - from <= BLOCK_BYTES) end++;
    const buf = file.bytes(from, at[end - 1]! + len[end - 1]! - from);
    for (let j = r; j < end; j++) {
      const a = at[j]! - from;
      warm(j, parse(buf.toString('utf8', a, a + len[j]!), at[j]!));
    }
  };
}
