import { AppError } from '../../errors.js';
import { addDays, formatLocalDate, parseLocalDate } from '../../time/local-date.js';
import { endOfWordsDay, hasClock, instantOfWords, readTimeWords, type TimeWords } from '../../time/time-words.js';
import { startOfLocalDay } from '../../time/zoned-time.js';
import { usage } from '../command-runtime.js';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Examples of a good value, by flag: said with every date the CLI cannot read. */
const EXAMPLES: Record<string, string> = {
  '--from': '2031-02-01 or --from monday',
  '--to': '2031-03-01 or --to "next monday"',
  '--since': 'yesterday or --since "2031-02-01 09:00"',
  '--until': 'today or --until 2031-03-01',
  WHEN: '"tomorrow 14:00-16:00" or WHEN 2031-06-02',
};

/** A flag's value the CLI cannot read: a usage error (exit 2) naming the flag as typed, whatever the command. */
export function unreadable(flag: string, text: string): AppError {
  const message = 'is not a date or time it can read';
  const e = EXAMPLES[flag] ?? `"tomorrow 3pm" or ${flag} 2031-02-10T15:00:00+01:00`;
  return new AppError(400, 'usage', `${flag}: "${text}" ${message} (e.g. ${flag} ${e}).`, { details: [{ path: flag, message }] });
}

/** The words of one flag, read in the user's zone. */
function readFlag(text: string, tz: string, now: Date, flag: string): TimeWords {
  const t = text.trim();
  const r = readTimeWords(t, tz, now);
  if (!r) throw unreadable(flag, text);
  // chrono reads what it can and drops the rest: "tomorrow 25:00" reads as "tomorrow". A time it
  // left behind is an impossible time, not an all-day event.
  const rest = `${t.slice(0, r.index)} ${t.slice(r.index + r.text.length)}`.trim();
  if (rest && /\d/.test(rest)) {
    throw new AppError(
      400,
      'usage',
      `${flag}: "${rest}" in "${text}" is not a time of day (hours 0–23, minutes 0–59), e.g. "tomorrow 15:00" or "tomorrow 3pm".`,
      {
        details: [{ path: flag, message: `"${rest}" is not a time of day` }],
      },
    );
  }
  return r;
}

/**
 * A date or time given on the command line: ISO 8601 with offset, a bare date (kept as a date), or
 * words ("tomorrow 3pm", "next friday 9:30", "yesterday") read as wall time in `tz`, so "3pm" is
 * 3pm in the user's zone whatever the machine's zone is. Errors name `flag`, as typed.
 */
export function parseWhen(text: string, tz: string, now: Date, flag = '--at'): string {
  const t = text.trim();
  if (ISO_INSTANT.test(t)) {
    const ms = Date.parse(t);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  if (ISO_DATE.test(t)) {
    if (!parseLocalDate(t)) throw unreadable(flag, text);
    return t;
  }
  const c = readFlag(t, tz, now, flag).start;
  // A day named without a time ("friday") is a date.
  if (!hasClock(c)) return formatLocalDate({ year: c.get('year')!, month: c.get('month')!, day: c.get('day')! });
  return instantOfWords(c, tz).toISOString();
}

/**
 * A date flag that bounds a range of instants (`--since`, `--until`, `--from`, `--to`): as
 * `parseWhen`, with a date alone meaning the start of that day in `tz` ("yesterday" is from
 * yesterday's midnight).
 */
export function parseInstant(text: string, tz: string, now: Date, flag: string, bound: 'start' | 'end' = 'start'): string {
  const at = parseWhen(text, tz, now, flag);
  if (!ISO_DATE.test(at)) return at;
  const day = parseLocalDate(at)!;
  // An end given as a day includes that day: up to the last millisecond before the next midnight.
  if (bound === 'end') return new Date(startOfLocalDay(addDays(day, 1), tz).getTime() - 1).toISOString();
  return startOfLocalDay(day, tz).toISOString();
}

/** The date flags of a command that bound a range of instants, read in the user's zone (fetched only when one is given). */
export async function instantFlags<K extends string>(
  deps: { userZone(): Promise<string> },
  flags: Partial<Record<K, { value: string | undefined; flag: string; bound?: 'start' | 'end' }>>,
): Promise<Partial<Record<K, string>>> {
  const given = Object.entries(flags).filter(([, f]) => (f as { value?: string }).value !== undefined) as [
    K,
    { value: string; flag: string; bound?: 'start' | 'end' },
  ][];
  if (!given.length) return {};
  const zone = await deps.userZone();
  const now = new Date();
  return Object.fromEntries(given.map(([k, f]) => [k, parseInstant(f.value, zone, now, f.flag, f.bound)])) as Partial<Record<K, string>>;
}

/** Minutes of "45m", "1h30m", "2h", "1.5h", "90", "3d". */
export function parseDuration(text: string, flag = '--for'): number {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  let m: RegExpExecArray | null;
  let minutes: number | undefined;
  if (/^\d+$/.test(t)) minutes = Number(t);
  else if ((m = /^(\d+(?:\.\d+)?)d(?:ays?)?$/.exec(t))) minutes = Number(m[1]) * 1440;
  else if ((m = /^(?:(\d+(?:\.\d+)?)h(?:ours?|rs?)?)?(?:(\d+)m(?:in(?:utes?)?)?)?$/.exec(t)) && (m[1] || m[2]))
    minutes = Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
  if (minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) throw usage(`${flag}: "${text}" is not a duration (45m, 1h30m, 2h, 90, 3d).`);
  return Math.round(minutes);
}

export interface OneOff {
  start: string;
  end: string;
}

/**
 * A one-off stretch of time from words, in the user's zone: `tomorrow 14:00-16:00`,
 * `June 2 2031 12:00 to 13:00`, `2031-06-02T12:00Z/2031-06-02T13:00Z`, or a date alone (the whole
 * day). Without an end, `forMinutes` gives the length.
 */
export function parseOneOff(text: string, zone: string, now: Date, forMinutes?: number, flag = 'WHEN'): OneOff {
  const halves = text.split(/\s*\/\s*/);
  const first = readTimeWords(halves[0]!, zone, now);
  if (!first) throw unreadable(flag, text);
  const second = halves.length === 2 ? readTimeWords(halves[1]!, zone, now) : undefined;
  if (halves.length === 2 && !second) throw unreadable(flag, halves[1]!);
  const endComp = second ? second.start : first.end;
  const start = instantOfWords(first.start, zone);
  let end: Date;
  // An end given as a date alone ("June 2 - June 4") includes that whole day.
  if (endComp) end = hasClock(endComp) ? instantOfWords(endComp, zone) : endOfWordsDay(endComp, zone);
  else if (forMinutes !== undefined) end = new Date(start.getTime() + forMinutes * 60_000);
  else if (!hasClock(first.start)) end = endOfWordsDay(first.start, zone);
  else throw usage(`${flag}: "${text}" has no end: write a range ("tomorrow 14:00-16:00") or add --for 2h.`);
  return { start: start.toISOString(), end: end.toISOString() };
}
