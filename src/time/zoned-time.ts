/**
 * Wall-time arithmetic in an IANA zone with nothing but `Intl.DateTimeFormat`: local date/time ↔
 * instant, DST-correct. Tempo, the calendar and the planner share it, so "Monday 09:00 in
 * Europe/Berlin" means the same instant everywhere.
 *
 * Local dates are plain `{year, month, day}` values (month 1–12) with no zone attached; calendar
 * arithmetic on them (`addDays`, `weekdayOf`) never touches a zone and so never skips or repeats
 * a day around a DST change.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second?: number;
}

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

export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** Epoch milliseconds of a wall time read as if it were UTC (handles years 0–99, unlike Date.UTC). */
export function wallMs(l: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(l.year, l.month - 1, l.day);
  d.setUTCHours(l.hour, l.minute, l.second ?? 0, 0);
  return d.getTime();
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
    local = { year: m[4] === 'BC' ? 1 - Number(m[3]) : Number(m[3]), month: Number(m[1]), day: Number(m[2]), hour: Number(m[5]), minute: Number(m[6]), second: Number(m[7]) };
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
 * The instant at which the wall clock in `zone` shows `local`. A wall time skipped by a DST change
 * (02:30 on a spring-forward night) or shown twice (02:30 on a fall-back night) is resolved like
 * Temporal does: `compatible` (default) takes the earlier of two and moves a skipped time forward
 * by the gap; `earlier`/`later` choose; `reject` throws a RangeError.
 */
export function fromZoned(local: LocalDateTime, zone: string, disambiguation: Disambiguation = 'compatible'): Date {
  const t = wallMs(local);
  // The offsets in force a day either side bracket any single transition near this wall time.
  const before = offsetMinutes(t - DAY, zone);
  const after = offsetMinutes(t + DAY, zone);
  if (before === after) return new Date(t - before * MINUTE);
  const candidates = [...new Set([before, after])]
    .map((o) => t - o * MINUTE)
    .filter((ms) => offsetMinutes(ms, zone) * MINUTE === t - ms)
    .sort((a, b) => a - b);
  if (candidates.length === 1) return new Date(candidates[0]!);
  if (candidates.length > 1) {
    if (disambiguation === 'reject') throw new RangeError(`${formatLocalDateTime(local)} occurs twice in ${zone}`);
    return new Date(disambiguation === 'later' ? candidates.at(-1)! : candidates[0]!);
  }
  if (disambiguation === 'reject') throw new RangeError(`${formatLocalDateTime(local)} does not exist in ${zone}`);
  // In a gap, the offset from before the change lands after the gap, the one from after it before.
  return new Date(disambiguation === 'earlier' ? t - after * MINUTE : t - before * MINUTE);
}

// ------------------------------------------------------------------ local dates

export function localDateOf(instant: Date | number, zone: string): LocalDate {
  const { year, month, day } = toZoned(instant, zone);
  return { year, month, day };
}

export function addDays(d: LocalDate, n: number): LocalDate {
  const x = new Date(wallMs({ ...d, hour: 12, minute: 0 }) + n * DAY);
  return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
}

/** Days from `a` to `b` (positive when b is later). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((wallMs({ ...b, hour: 0, minute: 0 }) - wallMs({ ...a, hour: 0, minute: 0 })) / DAY);
}

export function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function weekdayOf(d: LocalDate): Weekday {
  const js = new Date(wallMs({ ...d, hour: 12, minute: 0 })).getUTCDay(); // 0 = Sunday
  return WEEKDAYS[(js + 6) % 7]!;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

export function formatLocalDate(d: LocalDate): string {
  return `${d.year < 0 ? '-' : ''}${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

function formatLocalDateTime(l: LocalDateTime): string {
  return `${formatLocalDate(l)}T${pad(l.hour)}:${pad(l.minute)}`;
}

/** `YYYY-MM-DD` → a local date; undefined when it is not a real calendar date. */
export function parseLocalDate(s: string): LocalDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const back = addDays(d, 0);
  return compareDates(back, d) === 0 ? d : undefined;
}

/** ISO 8601 week of a local date: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeekOf(d: LocalDate): { year: number; week: number } {
  const dow = WEEKDAYS.indexOf(weekdayOf(d)); // 0 = Monday
  const thursday = addDays(d, 3 - dow);
  const jan1 = { year: thursday.year, month: 1, day: 1 };
  return { year: thursday.year, week: Math.floor(daysBetween(jan1, thursday) / 7) + 1 };
}

export const isoWeekKey = (d: LocalDate) => {
  const { year, week } = isoWeekOf(d);
  return `${year}-W${pad(week)}`;
};

/** The Monday that starts the ISO week of `d`. */
export function startOfIsoWeek(d: LocalDate): LocalDate {
  return addDays(d, -WEEKDAYS.indexOf(weekdayOf(d)));
}

// ------------------------------------------------------------------ wall times of day

/** `HH:MM` → minutes after midnight; undefined when malformed. */
export function parseHHMM(s: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h <= 23 && min <= 59 ? h * 60 + min : undefined;
}

export function formatHHMM(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

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
