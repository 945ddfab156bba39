import { usage } from '../../command-runtime.js';

/** Loaded with the command tree (option parsers run before a verb loads), so it imports nothing heavy. */

const NONE = new Set(['none', 'off', 'remove', '-']);
export const isNone = (s: string) => NONE.has(s.trim().toLowerCase());

/**
 * A count for a limit, or `'none'` to remove the limit. (commander turns an option parser's null
 * into an empty string, so removal is a word until the verb sends it as null.)
 */
export function parseLimit(flag: string) {
  return (v: string): number | 'none' => {
    if (isNone(v)) return 'none';
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw usage(`${flag} wants a whole number ≥ 0 or "none", not "${v}".`);
    return n;
  };
}
