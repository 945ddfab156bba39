import { addDays, type LocalDate, parseLocalDate } from '../../../../time/local-date.js';
import { midnightAfter, wallAt } from '../../../../time/zone-cache.js';
import type { CliDeps } from '../../../command-runtime.js';
import { usage } from '../../../command-runtime.js';
import { allEvents } from '../../../input/all-events.js';
import { parseWhen } from '../../../input/when.js';
import { type GridDay, placeOnDays } from './grid-days.js';

/** The days a week may start on (`--week-start`). */
export const WEEK_STARTS = ['monday', 'sunday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];

/** What `cal week` and `cal month` read before drawing: the user's zone, week start and today. */
export interface GridContext {
  zone: string;
  weekStart: WeekStart;
  today: LocalDate;
  /** Columns to fill: the terminal's, else $COLUMNS, else 80 (on a pipe too: the same lines). */
  width: number;
}

const dateIn = (ms: number, tz: string): LocalDate => {
  const w = wallAt(ms, tz);
  return { year: w.year, month: w.month, day: w.day };
};

/** The week's first day: --week-start, else the profile's `week_starts` preference, else the locale's, else Monday. */
function weekStartOf(flag: string | undefined, preference: unknown, env: NodeJS.ProcessEnv): WeekStart {
  if (flag !== undefined) {
    const f = flag.trim().toLowerCase();
    if (f === 'monday' || f === 'mon') return 'monday';
    if (f === 'sunday' || f === 'sun') return 'sunday';
    throw usage(`--week-start: "${flag}" is not a week start; use monday or sunday (e.g. --week-start sunday).`);
  }
  if (typeof preference === 'string' && /^(monday|sunday)$/i.test(preference)) return preference.toLowerCase() as WeekStart;
  // A locale that starts weeks on Sunday (en_US, he_IL …) as khal and cal(1) read it; C/POSIX and unknown ones: Monday.
  const locale = (env.LC_ALL || env.LC_TIME || env.LANG || '').split('.')[0]!.replace('_', '-');
  if (/^[a-z]{2,3}-[A-Z]{2}$/.test(locale)) {
    try {
      const info = (new Intl.Locale(locale) as Intl.Locale & { weekInfo?: { firstDay: number } }).weekInfo;
      if (info?.firstDay === 7) return 'sunday';
    } catch {
      // An unknown locale: Monday.
    }
  }
  return 'monday';
}

/** Reads the profile (zone, week start) and the terminal width, once per command. */
export async function gridContext(deps: CliDeps, weekStartFlag: string | undefined): Promise<GridContext> {
  // Refuse a bad flag before connecting to the daemon.
  if (weekStartFlag !== undefined) weekStartOf(weekStartFlag, undefined, deps.env);
  const client = await deps.client();
  const profile = await client.call('GET /user/profile');
  const zone = profile.timezone || 'UTC';
  const width = deps.streams.stdout.columns || Number(deps.env.COLUMNS) || 80;
  return { zone, weekStart: weekStartOf(weekStartFlag, profile.preferences?.week_starts, deps.env), today: dateIn(Date.now(), zone), width };
}

/** `2026-12-07` (or `2026-12-7`) when it is a real date. */
function isoDate(t: string): LocalDate | undefined {
  const [y, m, d] = t.split('-');
  return parseLocalDate(`${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`);
}

/**
 * The date `cal week` shows the week of: today by default, an ISO date, or words chrono reads
 * ("next monday", "tomorrow", "in 2 weeks") in the user's zone. Anything else is a usage error.
 */
export function readWeekDate(text: string | undefined, ctx: GridContext): LocalDate {
  if (text === undefined) return ctx.today;
  const t = text.trim();
  const bad = () => usage(`DATE: "${text}" is not a date; give a day of the week you want to see, e.g. 2026-12-07, today, "next monday" or "in 2 weeks".`);
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(t)) {
    const date = isoDate(t);
    if (!date) throw bad();
    return date;
  }
  return readWords(t, ctx, bad);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The month `cal month` shows: this month by default, `2026-12`, an ISO date, a month name
 * ("december", "dec 2027": the next one to come when no year is given) or words ("next month").
 */
export function readMonth(text: string | undefined, ctx: GridContext): { year: number; month: number } {
  if (text === undefined) return { year: ctx.today.year, month: ctx.today.month };
  const t = text.trim();
  const bad = () => usage(`MONTH: "${text}" is not a month; try 2026-12, december, "dec 2027", "next month" or "last month".`);
  let m = /^(\d{4})-(\d{1,2})$/.exec(t);
  if (m) {
    const month = Number(m[2]);
    if (month < 1 || month > 12) throw bad();
    return { year: Number(m[1]), month };
  }
  // A month name alone is the next one to come (this one included), as chrono's forward dates read it.
  m = /^([a-z]{3,})\.?(?:\s+(\d{4}))?$/i.exec(t);
  const named = m ? MONTHS.findIndex((name) => name.startsWith(m![1]!.toLowerCase())) : -1;
  if (m && named >= 0) {
    const month = named + 1;
    const year = m[2] ? Number(m[2]) : month < ctx.today.month ? ctx.today.year + 1 : ctx.today.year;
    return { year, month };
  }
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(t)) {
    const d = isoDate(t);
    if (!d) throw bad();
    return { year: d.year, month: d.month };
  }
  const d = readWords(t, ctx, bad);
  return { year: d.year, month: d.month };
}

function readWords(t: string, ctx: GridContext, bad: () => Error): LocalDate {
  let at: string;
  try {
    at = parseWhen(t, ctx.zone, new Date(), 'DATE');
  } catch {
    throw bad();
  }
  const date = parseLocalDate(at);
  if (date) return date;
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) throw bad();
  return dateIn(ms, ctx.zone);
}

/**
 * The occurrences on `count` days from `first`, from the API's expanded listing (recurring
 * occurrences and overrides included). The query reaches a day further on each side, so an
 * all-day event kept in another zone than the user's is still found on its dates.
 */
export async function fetchDays(deps: CliDeps, ctx: GridContext, first: LocalDate, count: number): Promise<GridDay[]> {
  const client = await deps.client();
  const start = new Date(midnightAfter(first, -1, ctx.zone)).toISOString();
  const end = new Date(midnightAfter(addDays(first, count), 1, ctx.zone)).toISOString();
  const res = await allEvents(client, { start, end });
  return placeOnDays(res.events, ctx.zone, first, count);
}
