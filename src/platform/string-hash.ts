/**
 * A 32-bit hash of a string for in-memory tables (src/platform/key-table.ts, the store's
 * interner): FNV-1a of its characters taken two at a time (a UTF-16 pair fits in 32 bits, so
 * nothing is lost; half the multiplications, each waiting on the one before, of a hash per
 * character), mixed so that the low bits (a table's slot) depend on all of them. A value that is
 * not a string is hashed as its String() (a table compares the values themselves). Not for what
 * is persisted: that is src/search/text/text-hash.ts.
 */
export function stringHash(key: unknown): number {
  const k = typeof key === 'string' ? key : String(key);
  let h = 0x811c9dc5 ^ k.length;
  let i = 1;
  for (; i < k.length; i += 2) h = Math.imul(h ^ (k.charCodeAt(i - 1) | (k.charCodeAt(i) << 16)), 16777619);
  if (i === k.length) h = Math.imul(h ^ k.charCodeAt(i - 1), 16777619);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
