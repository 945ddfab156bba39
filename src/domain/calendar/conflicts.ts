import { CALENDAR_LIMITS } from '../../contracts/calendar.js';
import { AppError } from '../../errors.js';
import { SLICE_MS, TurnSlice } from '../../platform/turn-slice.js';
import type { Reads } from '../../store/store.js';
import { mayMeet } from './event-listing.js';
import { type Busy, busyIn, type StoredEvent, span } from './occurrences.js';
import { ExpansionBudget } from './recurrence.js';

const DAY = 86_400_000;
/** How far ahead the conflicts of an endless new series are looked for. */
const CONFLICT_HORIZON = 366 * DAY;

/**
 * Uids of the user's events overlapping any occurrence of `e` (within a year for an endless
 * series). Sort and sweep, never occurrence against occurrence: both sides sorted by start, a
 * running maximum of the new event's ends, and for each other interval one binary search.
 * At most `max_conflict_intervals` intervals and one expansion budget are spent; past either,
 * the answer is what was found so far and `truncated` says so. The user's other events are
 * gone through a slice per turn of the event loop.
 */
export async function conflictsOf(store: Reads, e: StoredEvent): Promise<{ uids: string[]; truncated: boolean }> {
  if (e.status === 'cancelled') return { uids: [], truncated: false };
  const cap = CALENDAR_LIMITS.max_conflict_intervals;
  const budget = new ExpansionBudget();
  const slice = new TurnSlice(SLICE_MS);
  let truncated = false;
  let mine: Busy[] = [];
  const others: Busy[] = [];
  try {
    const s = span(e, budget);
    const until = Math.min(s.last ?? Infinity, s.first + CONFLICT_HORIZON);
    mine = busyIn(e, s.first, until, budget);
    if (mine.length > cap) {
      truncated = true;
      mine = mine.slice(0, cap);
    }
    if (!mine.length) return { uids: [], truncated };
    let to = -Infinity;
    for (const b of mine) if (b.end > to) to = b.end;
    const from = mine[0]!.start;
    const room = cap - mine.length;
    await slice.maybeYield();
    outer: for (const other of store.byIndex('events', 'user_id', e.user_id)) {
      if (slice.due) await slice.yield();
      if (other.uid === e.uid || !mayMeet(other, from, to, budget)) continue;
      for (const b of busyIn(other, from, to, budget)) {
        if (others.length >= room) {
          truncated = true;
          break outer;
        }
        others.push(b);
      }
    }
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 422) throw err;
    truncated = true;
  }
  // maxEnd[k]: the latest end among mine[0..k-1] (the new event's intervals starting first).
  const maxEnd: number[] = [-Infinity];
  for (const b of mine) maxEnd.push(Math.max(maxEnd[maxEnd.length - 1]!, b.end));
  const found = new Set<string>();
  for (const o of others) {
    if (found.has(o.uid)) continue;
    // Intervals of mine starting before o ends; one of them reaching past o's start overlaps it.
    let lo = 0;
    let hi = mine.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (mine[mid]!.start < o.end) lo = mid + 1;
      else hi = mid;
    }
    if (maxEnd[lo]! > o.start) found.add(o.uid);
  }
  return { uids: [...found].sort(), truncated };
}
