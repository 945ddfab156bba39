import { CALENDAR_LIMITS } from '../../contracts/calendar.js';
import { validationFailed } from '../../errors.js';
import { SLICE_MS, TurnSlice } from '../../platform/turn-slice.js';
import type { Reads, Tx } from '../../store/store.js';
import { instantOf } from '../../time/zone-cache.js';
import { type Busy, busyIn, type EventItem, isSeries, occurrenceMaker, type StoredEvent, span } from './occurrences.js';
import { ExpansionBudget } from './recurrence.js';

const DAY = 86_400_000;
/** Longest range a listing may expand. */
const MAX_RANGE = CALENDAR_LIMITS.max_listing_days * DAY;

/** What a listing asks for: a range (dates or instants, in the user's zone), a tag, and whether series are expanded. */
export interface ListingQuery {
  start?: string;
  end?: string;
  tag?: string;
  expand?: boolean;
}

/**
 * Events and occurrences of a user overlapping [start, end), sorted by start. Bounded: the range
 * is at most `max_listing_days`, the answer at most `max_listing_occurrences` items, and the
 * expansion work at most `max_expansion_steps` (each a 422 naming the limit). The user's events
 * are gone through a slice per turn of the event loop (platform/turn-slice.ts).
 */
export async function listEvents(store: Reads, userId: string, tz: string, now: Date, q: ListingQuery): Promise<EventItem[]> {
  const budget = new ExpansionBudget();
  const slice = new TurnSlice(SLICE_MS);
  if (q.expand === false) return storedSeries(store, userId, q, tz, budget, slice);
  const from = q.start ? inputInstant(q.start, tz) : now.getTime();
  const to = q.end ? inputInstant(q.end, tz) : from + 30 * DAY;
  if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
  const maxDays = CALENDAR_LIMITS.max_listing_days;
  if (to - from > MAX_RANGE)
    throw validationFailed(`The range is longer than ${maxDays} days; list it in parts.`, [
      { path: 'end', message: `at most ${maxDays} days after start`, limit: 'max_listing_days', max: maxDays },
    ]);
  const cap = CALENDAR_LIMITS.max_listing_occurrences;
  const maxBytes = CALENDAR_LIMITS.max_listing_bytes;
  const items: EventItem[] = [];
  let bytes = 0;
  for (const e of store.byIndex('events', 'user_id', userId)) {
    if (slice.due) await slice.yield();
    if (q.tag !== undefined && e.tag !== q.tag) continue;
    // Every occurrence repeats its series' texts (a description may be 100 kB).
    const size = 600 + e.title.length + (e.description?.length ?? 0) + (e.location?.length ?? 0) + (e.rrule?.length ?? 0);
    const made = mayMeet(e, from, to, budget) ? occurrenceMaker(e, from, to, budget) : { length: 0, at: () => e };
    for (let i = 0; i < made.length; i++) {
      if ((i & 255) === 255 && slice.due) await slice.yield();
      const item = made.at(i);
      if (items.length >= cap)
        throw validationFailed(`The range holds more than ${cap} events and occurrences; ask for a shorter range.`, [
          { path: 'end', message: `more than ${cap} items`, limit: 'max_listing_occurrences', max: cap },
        ]);
      bytes += isSeries(e) ? size : size + (e.rdates?.length ?? 0) * 30;
      if (bytes > maxBytes)
        throw validationFailed(`The events in this range make more than ${maxBytes} bytes; ask for a shorter range.`, [
          { path: 'end', message: `more than ${maxBytes} bytes`, limit: 'max_listing_bytes', max: maxBytes },
        ]);
      items.push(item);
    }
  }
  await slice.maybeYield();
  return items.sort(byStartThenUid);
}

/** Events as stored (a series once), those that can occur in the range when one is given. */
async function storedSeries(
  store: Reads,
  userId: string,
  q: { start?: string; end?: string; tag?: string },
  tz: string,
  budget: ExpansionBudget,
  slice: TurnSlice,
): Promise<StoredEvent[]> {
  const from = q.start ? inputInstant(q.start, tz) : -Infinity;
  const to = q.end ? inputInstant(q.end, tz) : Infinity;
  if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
  const out: StoredEvent[] = [];
  for (const e of store.byIndex('events', 'user_id', userId)) {
    if (slice.due) await slice.yield();
    if (q.tag !== undefined && e.tag !== q.tag) continue;
    const s = span(e, budget);
    if (s.first < to && (s.last === undefined || s.last > from || (s.last === s.first && s.first >= from))) out.push(e);
  }
  await slice.maybeYield();
  return out.sort(byStartThenUid);
}

/**
 * What keeps a user busy in [start, end): expanded occurrences, cancelled ones left out. A pure
 * read for free-slot search and conflict display. With a budget, the expansion stops (422) when
 * it is spent; with a limit, at most that many intervals are gathered (the earliest events'
 * first, not the earliest intervals: callers that cap must treat the answer as partial).
 */
export function busyIntervals(
  source: Pick<Tx, 'byIndex'>,
  userId: string,
  start: Date | number | string,
  end: Date | number | string,
  budget = new ExpansionBudget(),
  limit = Infinity,
): Busy[] {
  const from = new Date(start).getTime();
  const to = new Date(end).getTime();
  const out: Busy[] = [];
  outer: for (const e of source.byIndex('events', 'user_id', userId)) {
    if (!mayMeet(e, from, to, budget)) continue;
    for (const b of busyIn(e, from, to, budget)) {
      if (out.length >= limit) break outer;
      out.push(b);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Cheap test first: most events are nowhere near the range. */
export function mayMeet(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): boolean {
  if (!isSeries(e)) return true;
  const s = span(e, budget);
  return !(s.first >= to || (s.last !== undefined && s.last <= from));
}

/** The instant of a range bound as the API takes it: a local date (midnight in `tz`) or an ISO instant. */
export function inputInstant(input: string, tz: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(input))
    return instantOf({ year: +input.slice(0, 4), month: +input.slice(5, 7), day: +input.slice(8, 10), hour: 0, minute: 0, second: 0 }, tz);
  return Date.parse(input);
}

/** What listing order compares: an event's or an occurrence's start, uid and (occurrences) original start. */
export interface ListingPosition {
  scheduled_for: string;
  uid: string;
  recurrence_id?: string | undefined;
}

/**
 * Listing order: start, uid, then original start (an override may move an occurrence onto
 * another's start), so every item has its own place and a page's cursor is exact. Starts are ISO
 * strings of one format (UTC, milliseconds), so comparing code points is comparing times, and
 * much cheaper than localeCompare over 10,000 items.
 */
export const byStartThenUid = (a: ListingPosition, b: ListingPosition): number =>
  a.scheduled_for < b.scheduled_for
    ? -1
    : a.scheduled_for > b.scheduled_for
      ? 1
      : a.uid.localeCompare(b.uid) || compareCodePoints(a.recurrence_id ?? '', b.recurrence_id ?? '');

const compareCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
