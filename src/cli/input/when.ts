import * as chrono from 'chrono-node';
import { validationFailed } from '../../errors.js';
import { instantOf, wallAt } from '../../time/zone-cache.js';
import { usage } from '../command-runtime.js';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A start given on the command line: ISO 8601 with offset, a bare date (kept as a date), or
 * natural language ("tomorrow 3pm", "next friday 9:30") read by chrono-node as wall time in
 * `tz`, so "3pm" is 3pm in the user's zone whatever the machine's zone is.
 */
export function parseWhen(text: string, tz: string, now: Date, flag = '--at'): string {
  const t = text.trim();
  if (ISO_INSTANT.test(t)) {
    const ms = Date.parse(t);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  if (ISO_DATE.test(t)) return t;
  // chrono computes in the process zone: give it the user's wall clock as "now" and read back components.
  const w = wallAt(now.getTime(), tz);
  const ref = new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const [r] = chrono.parse(t, ref, { forwardDate: true });
  if (!r) throw usage(`${flag}: cannot read "${text}" as a date or time (try "tomorrow 3pm", "next monday 9:30" or 2031-02-10T15:00:00+01:00).`);
  // chrono reads what it can and drops the rest: "tomorrow 25:00" reads as "tomorrow". A time it
  // left behind is an impossible time, not an all-day event.
  const rest = `${t.slice(0, r.index)} ${t.slice(r.index + r.text.length)}`.trim();
  if (rest && /\d/.test(rest)) {
    throw validationFailed(`${flag}: "${rest}" in "${text}" is not a time of day (hours 0–23, minutes 0–59), e.g. "tomorrow 15:00" or "tomorrow 3pm".`, [
      { path: flag, message: `"${rest}" is not a time of day` },
    ]);
  }
  const c = r.start;
  const wall = {
    year: c.get('year')!,
    month: c.get('month')!,
    day: c.get('day')!,
    hour: c.get('hour') ?? 0,
    minute: c.get('minute') ?? 0,
    second: c.get('second') ?? 0,
  };
  if (c.isCertain('timezoneOffset'))
    return new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - c.get('timezoneOffset')! * 60_000).toISOString();
  // A day named without a time ("friday") is an all-day date.
  if (!c.isCertain('hour')) return `${String(wall.year).padStart(4, '0')}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
  return new Date(instantOf(wall, tz)).toISOString();
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
