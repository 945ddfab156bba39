import { addDays, compareDates, parseHHMM, type Weekday, weekdayOf } from '../../time/local-date.js';
import { atLocalTime, localDateOf } from '../../time/zoned-time.js';

/** A half-open span `[start, end)` in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/** A wall-time range repeating every week: `end` at or before `start` ends on the next day. */
export interface WeeklyRange {
  start: string;
  end: string;
  /** Days the range starts on; absent = every day. */
  days?: readonly Weekday[];
}

const toMs = (v: Date | string | number) => (typeof v === 'number' ? v : new Date(v).getTime());

export function interval(start: Date | string | number, end: Date | string | number): Interval {
  return { start: toMs(start), end: toMs(end) };
}

export const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/**
 * The concrete occurrences of a weekly range that overlap `[from, to)`, each computed from wall
 * times in `zone` (so a 06:00–12:00 range stays 06:00–12:00 across a DST change, and a night
 * range on the change's night is an hour shorter or longer).
 */
export function expandWeekly(range: WeeklyRange, zone: string, from: number, to: number): Interval[] {
  const s = parseHHMM(range.start);
  const e = parseHHMM(range.end);
  if (s === undefined || e === undefined || to <= from) return [];
  const out: Interval[] = [];
  // A range starting the day before `from` may still run into it.
  const last = localDateOf(to, zone);
  for (let d = addDays(localDateOf(from, zone), -1); compareDates(d, last) <= 0; d = addDays(d, 1)) {
    if (range.days && !range.days.includes(weekdayOf(d))) continue;
    const start = atLocalTime(d, s, zone).getTime();
    const end = atLocalTime(e > s ? d : addDays(d, 1), e, zone).getTime();
    // A range that a DST gap swallows whole has no length that day.
    if (end > start && end > from && start < to) out.push({ start, end });
  }
  return out;
}

/** Sorted, with overlapping or touching intervals merged. */
export function normalize(list: readonly Interval[]): Interval[] {
  const sorted = list.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** `base` minus every interval of `cut`. */
export function subtract(base: readonly Interval[], cut: readonly Interval[]): Interval[] {
  const holes = normalize(cut);
  const out: Interval[] = [];
  for (const b of normalize(base)) {
    let cursor = b.start;
    for (const h of holes) {
      if (h.end <= cursor) continue;
      if (h.start >= b.end) break;
      if (h.start > cursor) out.push({ start: cursor, end: h.start });
      cursor = Math.max(cursor, h.end);
      if (cursor >= b.end) break;
    }
    if (cursor < b.end) out.push({ start: cursor, end: b.end });
  }
  return out;
}
