import ICAL from 'ical.js';
import { addDays, instantOf, wallAt, type Wall } from './zone.js';

/** What expansion needs to know of a series; `key` identifies the rest (equal keys, equal expansions). */
export interface SeriesRule {
  key: string;
  /** Instant of DTSTART. */
  start: number;
  tz: string;
  allDay: boolean;
  rrule: string;
}

/** A series with a runaway rule stops here rather than eating the daemon's memory. */
export const MAX_OCCURRENCES = 100_000;
const CACHE_SIZE = 2_000;

interface Expansion {
  starts: number[];
  done: boolean;
  next: () => number | undefined;
}

/** Expansions are kept per series version and extended lazily: the iterator only ever walks forward once. */
const cache = new Map<string, Expansion>();

const icalTime = (w: Wall, isDate: boolean) =>
  isDate ? ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, isDate: true }) : ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: false });

/**
 * The rule is expanded in wall time (floating ICAL.Time), then each wall time is placed in the
 * series' zone. That is what keeps a 09:00 meeting at 09:00 across DST changes. UNTIL given in UTC
 * is moved to the zone's wall clock first so it compares like with like.
 */
function startExpansion(s: SeriesRule): Expansion {
  const recur = ICAL.Recur.fromString(s.rrule);
  const startWall = wallAt(s.start, s.tz);
  if (recur.until) {
    const u = recur.until;
    let w: Wall;
    if (u.isDate) w = { year: u.year, month: u.month, day: u.day, hour: 23, minute: 59, second: 59 };
    else if (u.zone?.tzid === 'UTC') w = wallAt(Date.UTC(u.year, u.month - 1, u.day, u.hour, u.minute, u.second), s.tz);
    else w = { year: u.year, month: u.month, day: u.day, hour: u.hour, minute: u.minute, second: u.second };
    recur.until = icalTime(w, s.allDay);
  }
  const iter = recur.iterator(icalTime(startWall, s.allDay));
  let produced = 0;
  return {
    starts: [],
    done: false,
    next: () => {
      if (produced >= MAX_OCCURRENCES) return undefined;
      const t = iter.next();
      if (!t) return undefined;
      produced++;
      const w: Wall = { year: t.year, month: t.month, day: t.day, hour: s.allDay ? 0 : t.hour, minute: s.allDay ? 0 : t.minute, second: s.allDay ? 0 : t.second };
      return instantOf(w, s.tz);
    },
  };
}

function expansionOf(s: SeriesRule): Expansion {
  let e = cache.get(s.key);
  if (e) {
    // Refresh its place in the (insertion-ordered) map: least recently used goes first.
    cache.delete(s.key);
    cache.set(s.key, e);
    return e;
  }
  e = startExpansion(s);
  cache.set(s.key, e);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return e;
}

function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Start instants the rule gives in [from, to), ascending. */
export function ruleStarts(s: SeriesRule, from: number, to: number): number[] {
  const e = expansionOf(s);
  while (!e.done && (e.starts.length === 0 || e.starts[e.starts.length - 1]! < to)) {
    const t = e.next();
    if (t === undefined) e.done = true;
    // A wall time pushed forward out of a DST gap can land on the next occurrence: keep one.
    else if (e.starts.length === 0 || t > e.starts[e.starts.length - 1]!) e.starts.push(t);
  }
  return e.starts.slice(lowerBound(e.starts, from), lowerBound(e.starts, to));
}

/** The last start of a finite rule (COUNT or UNTIL), or undefined for an endless one. */
export function lastRuleStart(s: SeriesRule): number | undefined {
  if (!/(^|;)(COUNT|UNTIL)=/.test(s.rrule)) return undefined;
  const all = ruleStarts(s, -Infinity, Infinity);
  return all[all.length - 1];
}

/** End of an occurrence: whole local days for all-day events (DST-proof), minutes otherwise. */
export function occurrenceEnd(start: number, durationMinutes: number, tz: string, allDay: boolean): number {
  if (!allDay) return start + durationMinutes * 60_000;
  const days = Math.max(1, Math.round(durationMinutes / 1440));
  return instantOf(addDays(wallAt(start, tz), days), tz);
}

/** Drop cached expansions (tests). */
export function clearExpansionCache(): void {
  cache.clear();
}
