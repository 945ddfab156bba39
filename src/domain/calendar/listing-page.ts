import { z } from 'zod';
import { jsonBytes, pageFit } from '../page-bytes.js';
import { decodeCursor, encodeCursor } from '../page-cursor.js';
import { byStartThenUid, type ListingPosition } from './event-listing.js';

/** Where a page of a listing ended: the last item's start, uid and original start ('' for none). */
const ListingCursor = z.tuple([z.literal('events'), z.string(), z.string(), z.string()]);

/**
 * The page of a listing (sorted by `byStartThenUid`) that follows the cursor, ended before
 * PAGE_BYTES of JSON: every occurrence repeats its series' texts (a description may be 100 kB),
 * so a listing within its item cap can still be tens of MB.
 */
export function listingPage<T extends ListingPosition>(items: readonly T[], cursor: string | undefined): { events: T[]; next_cursor: string | null } {
  let from = 0;
  if (cursor) {
    const [, scheduled_for, uid, rid] = decodeCursor(cursor, ListingCursor);
    const after = { scheduled_for, uid, ...(rid ? { recurrence_id: rid } : {}) };
    from = firstAfter(items, after);
  }
  const rest = items.slice(from);
  const page = rest.slice(0, pageFit(rest, jsonBytes));
  const last = page[page.length - 1];
  return {
    events: page,
    next_cursor: last && page.length < rest.length ? encodeCursor(['events', last.scheduled_for, last.uid, last.recurrence_id ?? '']) : null,
  };
}

/** The index of the first item after `p` (binary search: the items are in listing order). */
function firstAfter(items: readonly ListingPosition[], p: ListingPosition): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byStartThenUid(items[mid]!, p) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
