import { CALENDAR_LIMITS } from '../../contracts/calendar-limits.js';
import { validationFailed } from '../../errors.js';
import { type LocalDateTime, wallFromMs } from '../../time/local-date.js';
import { instantOf, midnightAfter, wallAt } from '../../time/zone-cache.js';
import { iterateRule, parseRule, type RuleIterator } from './expand.js';

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
export const MAX_OCCURRENCES = CALENDAR_LIMITS.max_series_occurrences;
const CACHE_SIZE = 2_000;

/**
 * A wall-clock budget shared by every expansion one request does. It is checked between two
 * occurrences (the expander's own loops are bounded), so an expansion cut by it stays consistent
 * and the next request goes on from there.
 */
export class ExpansionBudget {
  private deadline: number;
  private pausedAt?: number;
  private ticks = 0;
  constructor(readonly ms: number = CALENDAR_LIMITS.expansion_budget_ms) {
    this.deadline = performance.now() + ms;
  }
  /**
   * Stop the clock while the request gives the event loop back (turns.ts): the budget bounds the
   * request's own work, not the time other requests run meanwhile.
   */
  pause(): void {
    this.pausedAt ??= performance.now();
  }
  resume(): void {
    if (this.pausedAt === undefined) return;
    this.deadline += performance.now() - this.pausedAt;
    this.pausedAt = undefined;
  }
  /** Throws 422 naming the limit once the budget is spent (checked every 256 occurrences). */
  tick(): void {
    if ((++this.ticks & 255) === 0 && performance.now() > this.deadline) throw budgetSpent(this.ms);
  }
}

export const budgetSpent = (ms: number) =>
  validationFailed(`Expanding the recurring events took longer than the ${ms} ms a request may spend; ask for a shorter range.`, [
    { path: 'end', message: `expansion budget of ${ms} ms spent`, limit: 'expansion_budget_ms', max: ms },
  ]);

interface Expansion {
  starts: number[];
  done: boolean;
  next: () => number | undefined;
}

/** Expansions are kept per series version and extended lazily: the iterator only ever walks forward once. */
const cache = new Map<string, Expansion>();

const wallMsOf = (w: Required<LocalDateTime>) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** UNTIL in the series' wall clock: a date means its whole day, a UTC time is moved to the zone. */
function untilWall(rrule: string, tz: string, allDay: boolean): number | undefined {
  const m = /(?:^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?/.exec(rrule);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let w: Required<LocalDateTime>;
  if (m[4] === undefined) w = { year: y, month: mo, day: d, hour: 23, minute: 59, second: 59 };
  else if (m[7] === 'Z') w = wallAt(Date.UTC(y, mo - 1, d, Number(m[4]), Number(m[5]), Number(m[6])), tz);
  else w = { year: y, month: mo, day: d, hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6]) };
  // All-day occurrences are dates: UNTIL keeps the whole of its (local) date.
  if (allDay) w = { ...w, hour: 23, minute: 59, second: 59 };
  return wallMsOf(w);
}

/** A fresh iterator of the series' wall times (ms of the local clock, as Date.UTC gives them). */
export function wallIterator(s: SeriesRule): RuleIterator {
  // An all-day series lives on dates: its times of day are midnight whatever the rule says.
  const rrule = s.allDay ? s.rrule.replace(/;BY(HOUR|MINUTE|SECOND)=[^;]*/g, '') : s.rrule;
  const start = wallAt(s.start, s.tz);
  const dtstart = wallMsOf(s.allDay ? { ...start, hour: 0, minute: 0, second: 0 } : start);
  return iterateRule(parseRule(rrule, untilWall(s.rrule, s.tz, s.allDay)), dtstart);
}

/** A fresh iterator of instants (not cached): the rule expanded in wall time, placed in the zone. */
export function seriesIterator(s: SeriesRule): RuleIterator {
  const iter = wallIterator(s);
  let produced = 0;
  return {
    next: () => {
      if (produced >= MAX_OCCURRENCES) return undefined;
      const t = iter.next();
      if (t === undefined) return undefined;
      produced++;
      const w = wallFromMs(s.allDay ? Math.floor(t / 86_400_000) * 86_400_000 : t);
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
  const iter = seriesIterator(s);
  e = { starts: [], done: false, next: () => iter.next() };
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

/** Start instants the rule gives in [from, to), ascending; the budget (if any) bounds new expansion work. */
export function ruleStarts(s: SeriesRule, from: number, to: number, budget?: ExpansionBudget): number[] {
  const e = expansionOf(s);
  while (!e.done && (e.starts.length === 0 || e.starts[e.starts.length - 1]! < to)) {
    budget?.tick();
    const t = e.next();
    if (t === undefined) e.done = true;
    // A wall time pushed forward out of a DST gap can land on the next occurrence: keep one.
    else if (e.starts.length === 0 || t > e.starts[e.starts.length - 1]!) e.starts.push(t);
  }
  return e.starts.slice(lowerBound(e.starts, from), lowerBound(e.starts, to));
}

/** The last start of a finite rule (COUNT or UNTIL), or undefined for an endless one. */
export function lastRuleStart(s: SeriesRule, budget?: ExpansionBudget): number | undefined {
  if (!/(^|;)(COUNT|UNTIL)=/.test(s.rrule)) return undefined;
  const all = ruleStarts(s, -Infinity, Infinity, budget);
  return all[all.length - 1];
}

/** End of an occurrence: whole local days for all-day events (DST-proof), minutes otherwise. */
export function occurrenceEnd(start: number, durationMinutes: number, tz: string, allDay: boolean): number {
  if (!allDay) return start + durationMinutes * 60_000;
  const days = Math.max(1, Math.round(durationMinutes / 1440));
  return midnightAfter(wallAt(start, tz), days, tz);
}

/** Drop cached expansions (tests). */
export function clearExpansionCache(): void {
  cache.clear();
}
