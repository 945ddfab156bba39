import { addDays, type LocalDate, type LocalDateTime, wallFromMs, wallMs } from './local-date.js';
import { resolveWall, toZoned } from './zoned-time.js';

/**
 * Wall time ↔ instant in an IANA zone, from the runtime's own tz data (read through
 * zoned-time.ts), with offsets cached per span: the bulk path. Recurring events keep their wall
 * time in their zone, so every occurrence is placed with these functions, and expanding,
 * importing and exporting thousands of occurrences must not ask Intl each time. Offsets here
 * keep their seconds (Monrovia kept −00:44:30 until 1972), where zoned-time's
 * `offsetMinutes` rounds to minutes. The calendar, iCalendar and the CLI's `cal` commands use it.
 */

/** The wall clock in `tz` at an instant (ms since the epoch). */
export function wallAt(ms: number, tz: string): Required<LocalDateTime> {
  return wallFromMs(ms + offsetAt(ms, tz));
}

/** The wall clock straight from Intl (slow: the cached offsets below are built from it). */
function intlWallAt(ms: number, tz: string): Required<LocalDateTime> {
  const { year, month, day, hour, minute, second } = toZoned(ms, tz);
  return { year, month, day, hour, minute, second };
}

const DAY = 86_400_000;

function intlOffset(ms: number, tz: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallMs(intlWallAt(whole, tz)) - whole;
}

/** Spans of time with one offset, per zone, found around the instants asked for. */
const spans = new Map<string, { from: number; to: number; offset: number }[]>();
const PROBE = 370;

/** The last instant (to the second) on the `offset` side between a and b, where the offset at b differs. */
function edge(tz: string, a: number, b: number, offset: number): number {
  while (Math.abs(b - a) > 1000) {
    const mid = a + Math.trunc((b - a) / 2000) * 1000;
    if (intlOffset(mid, tz) === offset) a = mid;
    else b = mid;
  }
  return a;
}

/**
 * UTC offset of `tz` at an instant, in ms (positive east of Greenwich). Intl is slow, so each
 * answer is widened (by day-steps, then bisection to the second) to the whole span with that
 * offset and kept: an export of 10,000 events asks Intl a few hundred times, not 60,000.
 */
export function offsetAt(ms: number, tz: string): number {
  let list = spans.get(tz);
  if (!list) spans.set(tz, (list = []));
  for (const s of list) if (ms >= s.from && ms < s.to) return s.offset;
  const offset = intlOffset(ms, tz);
  let lo = ms;
  let hi = ms;
  let from = -Infinity;
  let to = Infinity;
  for (let i = 0; i < PROBE; i++) {
    const next = lo - DAY;
    if (intlOffset(next, tz) !== offset) {
      from = edge(tz, lo, next, offset);
      break;
    }
    lo = next;
  }
  for (let i = 0; i < PROBE; i++) {
    const next = hi + DAY;
    if (intlOffset(next, tz) !== offset) {
      to = edge(tz, hi, next, offset) + 1000;
      break;
    }
    hi = next;
  }
  // Beyond the probes nothing is known: keep only what was checked.
  const span = { from: Number.isFinite(from) ? from : lo, to: Number.isFinite(to) ? to : hi + 1, offset };
  if (list.length > 5000) list.length = 0;
  list.push(span);
  return offset;
}

/**
 * The instant of a wall time in `tz`, resolved as RFC 5545 §3.3.5 says: a time that occurs twice
 * (clocks going back) is the first one; a time skipped by a gap (clocks going forward) is read
 * with the offset before the gap, which moves it forward by the gap's length. That is
 * `resolveWall`'s `compatible`, here with the cached offsets.
 */
export function instantOf(w: LocalDateTime, tz: string): number {
  return resolveWall(w, tz, (t) => offsetAt(t, tz));
}

/** Local midnight of the day `days` after the date `d`, as an instant in `tz`. */
export function midnightAfter(d: LocalDate, days: number, tz: string): number {
  return instantOf({ ...addDays(d, days), hour: 0, minute: 0, second: 0 }, tz);
}

/** `+HHMM` / `-HHMM` (iCalendar UTC-OFFSET) of an offset in ms. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(ms / 1000));
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `${sign}${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}${s ? String(s).padStart(2, '0') : ''}`;
}
