import { PAGE_BYTES } from '../contracts/page.js';

/** What a page keeps for the rest of its answer: ids, dates, the cursor, token counts. */
const ENVELOPE_BYTES = 16 * 1024;

/** The size in bytes of a value as the answer serialises it (UTF-8 JSON). */
export const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v) ?? '');

/**
 * How many of `items`, from the first, fit one page: their JSON and a comma each within
 * `budget`. Always at least one, so an item larger than the budget comes alone in its page rather
 * than never. Sizes are measured only up to the cut, so a page costs what it holds.
 */
export function pageFit<T>(items: readonly T[], bytesOf: (item: T) => number, budget = PAGE_BYTES): number {
  let left = budget - ENVELOPE_BYTES;
  for (let i = 0; i < items.length; i++) {
    left -= bytesOf(items[i]!) + 1;
    if (left < 0) return Math.max(1, i);
  }
  return items.length;
}
