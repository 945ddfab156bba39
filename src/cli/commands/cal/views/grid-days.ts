import { addDays, compareDates, daysBetween, formatLocalDate, type LocalDate, WEEKDAYS, weekdayOf } from '../../../../time/local-date.js';
import { wallAt } from '../../../../time/zone-cache.js';
import type { EventView } from '../../../output/calendar-format.js';

/**
 * How an event shows on one day of a grid:
 * - `all-day`: an all-day event, on each date it covers (read in its own zone: a date is a date);
 * - `timed`: the day a timed event starts, from `from` to `to` (24:00 when it runs past midnight);
 * - `continues`: a timed event that started before this day and runs through all of it;
 * - `ends`: a timed event that started before this day and ends on it at `to`.
 */
export type DayPart = 'all-day' | 'timed' | 'continues' | 'ends';

export interface DayEntry {
  part: DayPart;
  /** Local wall time "HH:MM" in the user's zone where the event starts on this day (timed only). */
  from?: string;
  /** Local wall time where it ends on this day ("24:00": past midnight). */
  to?: string;
  /** Minutes after local midnight (for placing by time; not in the JSON). */
  startMin: number;
  endMin: number;
  /** For an event over several days: which of them this is, and how many. */
  day?: number;
  days?: number;
  event: EventView;
}

export interface GridDay {
  date: LocalDate;
  entries: DayEntry[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
const dateOf = (ms: number, tz: string): LocalDate => {
  const w = wallAt(ms, tz);
  return { year: w.year, month: w.month, day: w.day };
};
const minuteOf = (ms: number, tz: string) => {
  const w = wallAt(ms, tz);
  return w.hour * 60 + w.minute;
};

/** The order within a day: all-day and through-the-day first, then what ends, then by start time. */
const RANK: Record<DayPart, number> = { 'all-day': 0, continues: 1, ends: 2, timed: 3 };

/**
 * The occurrences of `events` (the API's expanded listing) on each of `count` days from `first`,
 * in the user's zone `tz`: timed events by their local wall time there (so a 09:00 Berlin event
 * stays at 09:00 across a DST change), multi-day events on every day they cover. Cancelled
 * occurrences are left out: they take no time.
 */
export function placeOnDays(events: readonly EventView[], tz: string, first: LocalDate, count: number): GridDay[] {
  const days: GridDay[] = Array.from({ length: count }, (_, i) => ({ date: addDays(first, i), entries: [] }));
  const put = (d: LocalDate, entry: DayEntry) => {
    const i = daysBetween(first, d);
    if (i >= 0 && i < count) days[i]!.entries.push(entry);
  };
  for (const e of events) {
    if (e.status === 'cancelled') continue;
    const start = Date.parse(e.scheduled_for);
    if (e.all_day) {
      const d0 = dateOf(start, e.timezone);
      const n = Math.max(1, Math.round(e.duration_minutes / 1440));
      for (let i = 0; i < n; i++) put(addDays(d0, i), { part: 'all-day', startMin: 0, endMin: 1440, event: e, ...(n > 1 ? { day: i + 1, days: n } : {}) });
      continue;
    }
    const end = start + e.duration_minutes * 60_000;
    const d0 = dateOf(start, tz);
    // The last day is the one holding the last minute of the event (an event ending at midnight ends the day before).
    const dn = e.duration_minutes > 0 ? dateOf(end - 1, tz) : d0;
    const n = daysBetween(d0, dn) + 1;
    const s0 = minuteOf(start, tz);
    // An event ending at midnight ends at 24:00 of its last day; one without a length ends where it starts.
    const endMin = e.duration_minutes > 0 ? minuteOf(end, tz) || 1440 : s0;
    for (let i = 0; i < n; i++) {
      const span = n > 1 ? { day: i + 1, days: n } : {};
      const d = addDays(d0, i);
      if (i === 0) put(d, { part: 'timed', from: hhmm(s0), to: hhmm(n > 1 ? 1440 : endMin), startMin: s0, endMin: n > 1 ? 1440 : endMin, event: e, ...span });
      else if (i === n - 1 && endMin < 1440) put(d, { part: 'ends', to: hhmm(endMin), startMin: 0, endMin, event: e, ...span });
      else put(d, { part: 'continues', startMin: 0, endMin: 1440, event: e, ...span });
    }
  }
  for (const d of days)
    d.entries.sort((a, b) => RANK[a.part] - RANK[b.part] || a.startMin - b.startMin || a.endMin - b.endMin || a.event.title.localeCompare(b.event.title));
  return days;
}

/**
 * The `--json` form of a grid: the days in order, each with its date, weekday and entries (the
 * API's event item under `event`, with how and when it shows that day).
 */
export function gridJson(days: GridDay[]) {
  return days.map((d) => ({
    date: formatLocalDate(d.date),
    weekday: weekdayOf(d.date),
    events: d.entries.map(({ part, from, to, day, days: n, event }) => ({
      part,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(day ? { day, days: n } : {}),
      event,
    })),
  }));
}

export const sameDate = (a: LocalDate, b: LocalDate) => compareDates(a, b) === 0;
export const WEEKDAY_NAMES = WEEKDAYS.map((d) => d[0]!.toUpperCase() + d.slice(1));
