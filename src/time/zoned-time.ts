import {
  addDays,
  formatLocalDate,
  formatLocalDateTime,
  isoWeekKey,
  type LocalDate,
  type LocalDateTime,
  startOfIsoWeek,
  type Weekday,
  wallMs,
  weekdayOf,
} from './local-date.js';

/**
 * Wall-time arithmetic in an IANA zone with nothing but `Intl.DateTimeFormat`: local date/time ↔
 * instant, DST-correct. Tempo, the calendar and the planner share it, so "Monday 09:00 in
 * Europe/Berlin" means the same instant everywhere.
 *
 * This is the exact path: every call asks Intl, offsets are whole minutes, and a skipped or
 * repeated wall time is resolved as the caller chooses (`Disambiguation`). Tempo, the planner and
 * the CLI's `tempo` commands use it. Code that converts thousands of instants (recurrence
 * expansion, iCalendar) uses src/time/zone-cache.ts, which caches offsets and resolves the same
 * way as `compatible` here, through the same `resolveWall`.
 */

/** What to do with a wall time that a DST change skips (gap) or repeats (overlap). */
export type Disambiguation = 'compatible' | 'earlier' | 'later' | 'reject';

/** A half-open span of time `[start, end)` in epoch milliseconds. */
export interface Period {
  /** `YYYY-MM-DD` for a day, `YYYY-Www` for an ISO week. */
  key: string;
  start: Date;
  end: Date;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** `3/30/2025 AD, 03:30:00` */
const EN_US = /^(\d{1,2})\/(\d{1,2})\/(\d{1,6}) (AD|BC), (\d{2}):(\d{2}):(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // hourCycle h23: some engines print midnight as "24" with hour12: false.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the runtime's tz data knows this IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `zone` at `instant` (seconds included, milliseconds dropped). */
export function toZoned(instant: Date | number, zone: string): Required<LocalDateTime> & { weekday: Weekday } {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid instant');
  const f = formatter(zone);
  let local: Required<LocalDateTime>;
  // format() is about four times faster than formatToParts(); the parts are the fallback should
  // an ICU version print en-US differently.
  const m = EN_US.exec(f.format(ms));
  if (m) {
    local = {
      year: m[4] === 'BC' ? 1 - Number(m[3]) : Number(m[3]),
      month: Number(m[1]),
      day: Number(m[2]),
      hour: Number(m[5]),
      minute: Number(m[6]),
      second: Number(m[7]),
    };
  } else {
    const parts: Record<string, string> = {};
    for (const p of f.formatToParts(ms)) parts[p.type] = p.value;
    const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
    local = { year, month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
  }
  return { ...local, weekday: weekdayOf(local) };
}

/** Offset of `zone` from UTC at `instant`, in minutes (east positive: Berlin in summer is +120). */
export function offsetMinutes(instant: Date | number, zone: string): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const wall = wallMs(toZoned(ms, zone));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / MINUTE);
}

/**
 * The instant (ms) at which a wall clock shows `local`, given the zone's UTC offset (ms) at any
 * instant: the one DST resolution of kairos, used by `fromZoned` (offsets from Intl) and by
 * zone-cache's `instantOf` (cached offsets). A wall time shown twice (clocks going back) is the
 * earlier instant unless `later` is asked for; a wall time skipped by a gap (clocks going forward)
 * is read with the offset before the gap, which moves it forward by the gap's length (`earlier`
 * reads it with the offset after, moving it back); `reject` throws a RangeError for either. The
 * default `compatible` is Temporal's, and what RFC 5545 §3.3.5 prescribes for iCalendar.
 */
export function resolveWall(local: LocalDateTime, zone: string, offsetAt: (ms: number) => number, disambiguation: Disambiguation = 'compatible'): number {
  const t = wallMs(local);
  // The offsets in force a day either side bracket any single transition near this wall time.
  const before = offsetAt(t - DAY);
  const after = offsetAt(t + DAY);
  if (before === after) return t - before;
  const candidates = [...new Set([before, after])]
    .map((o) => t - o)
    .filter((ms) => offsetAt(ms) === t - ms)
    .sort((a, b) => a - b);
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1) {
    if (disambiguation === 'reject') throw new RangeError(`${formatLocalDateTime(local)} occurs twice in ${zone}`);
    return disambiguation === 'later' ? candidates.at(-1)! : candidates[0]!;
  }
  if (disambiguation === 'reject') throw new RangeError(`${formatLocalDateTime(local)} does not exist in ${zone}`);
  // In a gap, the offset from before the change lands after the gap, the one from after it before.
  return disambiguation === 'earlier' ? t - after : t - before;
}

/**
 * The instant at which the wall clock in `zone` shows `local`, with offsets read from Intl. A wall
 * time skipped by a DST change (02:30 on a spring-forward night) or shown twice (02:30 on a
 * fall-back night) is resolved like Temporal does: `compatible` (default) takes the earlier of two
 * and moves a skipped time forward by the gap; `earlier`/`later` choose; `reject` throws a
 * RangeError.
 */
export function fromZoned(local: LocalDateTime, zone: string, disambiguation: Disambiguation = 'compatible'): Date {
  return new Date(resolveWall(local, zone, (ms) => offsetMinutes(ms, zone) * MINUTE, disambiguation));
}

// ------------------------------------------------------------------ local dates

export function localDateOf(instant: Date | number, zone: string): LocalDate {
  const { year, month, day } = toZoned(instant, zone);
  return { year, month, day };
}

// ------------------------------------------------------------------ wall times of day

/** The instant of `minutes` after (wall-clock) midnight on local date `d` in `zone`. */
export function atLocalTime(d: LocalDate, minutes: number, zone: string, disambiguation: Disambiguation = 'compatible'): Date {
  return fromZoned({ ...d, hour: Math.floor(minutes / 60), minute: minutes % 60 }, zone, disambiguation);
}

/** The first instant of local date `d` (not always 00:00: a few zones skip midnight). */
export function startOfLocalDay(d: LocalDate, zone: string): Date {
  return fromZoned({ ...d, hour: 0, minute: 0 }, zone, 'compatible');
}

// ------------------------------------------------------------------ periods

/** The local day holding `instant`: 23, 24 or 25 hours long. */
export function dayPeriod(instant: Date | number, zone: string): Period {
  const d = localDateOf(instant, zone);
  return { key: formatLocalDate(d), start: startOfLocalDay(d, zone), end: startOfLocalDay(addDays(d, 1), zone) };
}

/** The ISO week (Monday 00:00 to Monday 00:00, local) holding `instant`. */
export function isoWeekPeriod(instant: Date | number, zone: string): Period {
  const d = localDateOf(instant, zone);
  const monday = startOfIsoWeek(d);
  return { key: isoWeekKey(d), start: startOfLocalDay(monday, zone), end: startOfLocalDay(addDays(monday, 7), zone) };
}

/** `instant` as an ISO 8601 string with the zone's offset, e.g. `2025-03-30T03:30:00+02:00`. */
export function formatInZone(instant: Date | number, zone: string): string {
  const z = toZoned(instant, zone);
  const off = offsetMinutes(instant, zone);
  const sign = off < 0 ? '-' : '+';
  return `${formatLocalDateTime(z)}:${pad(z.second)}${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}
