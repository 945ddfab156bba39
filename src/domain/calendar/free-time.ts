import type { EventItem } from '../../contracts/calendar.js';
import type { Blocked, TimeRange } from '../../contracts/tempo.js';
import { addDays, formatLocalDate, type LocalDate } from '../../time/local-date.js';
import { startOfLocalDay } from '../../time/zoned-time.js';
import { blockedIntervals } from '../tempo/blocked-intervals.js';
import { searchRanges } from '../tempo/free-slots.js';
import { expandWeekly, type Interval, normalize, subtract } from '../tempo/intervals.js';

export interface FreeTimeInput {
  date: LocalDate;
  zone: string;
  minutes: number;
  profile: { time_ranges: Readonly<Record<string, TimeRange>>; blocked: readonly Blocked[] };
  tag?: string;
  /** Now (epoch ms): time already past is not free, so today's gaps start from it. */
  now?: number;
  /** The day's events and occurrences (calendar list of the day). */
  items: readonly EventItem[];
}

const iso = (t: number) => new Date(t).toISOString();

/**
 * A person's free time on one local day: the profile's day (a tag's range, or waking hours)
 * less timed events and blocked time, in gaps of at least `minutes`. All-day events take no time
 * (they are named beside the answer); cancelled ones neither.
 */
export function freeTime(i: FreeTimeInput) {
  const from = startOfLocalDay(i.date, i.zone).getTime();
  const to = startOfLocalDay(addDays(i.date, 1), i.zone).getTime();
  const clip = (x: Interval) => ({ start: Math.max(x.start, from), end: Math.min(x.end, to) });
  const day = normalize(
    searchRanges({ profile: i.profile, ...(i.tag ? { tag: i.tag } : {}) })
      .flatMap((r) => expandWeekly(r, i.zone, from, to))
      .map(clip),
  );
  const live = i.items.filter((e) => e.status !== 'cancelled');
  const busy = live
    .filter((e) => !e.all_day)
    .map((e) => ({ start: Date.parse(e.scheduled_for), end: Date.parse(e.scheduled_for) + e.duration_minutes * 60_000 }));
  const blocked = blockedIntervals(i.profile.blocked, i.zone, from, to);
  // The past, up to the next whole 5 minutes, is taken: a gap offered today starts from now on.
  const past = i.now !== undefined && i.now > from ? [{ start: from, end: Math.min(to, Math.ceil(i.now / 300_000) * 300_000) }] : [];
  const gaps = subtract(day, normalize([...busy, ...blocked, ...past])).filter((g) => g.end - g.start >= i.minutes * 60_000);
  return {
    date: formatLocalDate(i.date),
    timezone: i.zone,
    duration_minutes: i.minutes,
    day: day.map((d) => ({ start: iso(d.start), end: iso(d.end) })),
    slots: gaps.map((g) => ({ start: iso(g.start), end: iso(g.end), minutes: Math.round((g.end - g.start) / 60_000) })),
    all_day: live.filter((e) => e.all_day).map((e) => e.title),
    blocked: blocked.map((b) => ({ start: iso(clip(b).start), end: iso(clip(b).end), ...(b.block.label ? { label: b.block.label } : {}) })),
  };
}
