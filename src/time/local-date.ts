/**
 * Local dates and wall-clock times: the one vocabulary of time without a zone, shared by tempo,
 * the calendar, the planner, iCalendar and the CLI. Arithmetic on these values (`addDays`,
 * `weekdayOf`, ISO weeks) never touches a zone and so never skips or repeats a day around a DST
 * change; src/time/zoned-time.ts and src/time/zone-cache.ts turn them into instants.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** The weekdays' full names, in the order of WEEKDAYS: the one table every grammar of day names starts from. */
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** A calendar date without a zone (month 1–12). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/**
 * A wall-clock time: a local date and time of day without a zone. `second` is 0 when left out
 * (tempo speaks in HH:MM); what reads a wall clock gives all of it, `Required<LocalDateTime>`.
 */
export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second?: number;
}

const DAY = 86_400_000;

/** Epoch milliseconds of a wall time read as if it were UTC (handles years 0–99, unlike Date.UTC). */
export function wallMs(l: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(l.year, l.month - 1, l.day);
  d.setUTCHours(l.hour, l.minute, l.second ?? 0, 0);
  return d.getTime();
}

/** The wall time whose `wallMs` is `ms` (the inverse of `wallMs`). */
export function wallFromMs(ms: number): Required<LocalDateTime> {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

// ------------------------------------------------------------------ local dates

/** The local date `n` days after `d` (before it for negative `n`). */
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

export function formatLocalDateTime(l: LocalDateTime): string {
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
