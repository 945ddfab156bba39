import { CALENDAR_LIMITS } from '../../contracts/calendar-limits.js';
import { validationFailed } from '../../errors.js';
import { type LocalDateTime, wallFromMs } from '../../time/local-date.js';
import { instantOf, midnightAfter, wallAt } from '../../time/zone-cache.js';
import { iterateRule, parseRule, type RuleIterator, type StepMeter } from './expand.js';

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
 * The expansion work one request may do, counted in the expander's steps (expand.ts): the same
 * rules and range cost the same on any machine, whatever its load, so a request is refused or
 * answered the same way everywhere. A series is charged the steps its expansion from DTSTART needs
 * to answer, whether the expansion is cached or not, so a retry gives the same answer too.
 */
export class ExpansionBudget {
  used = 0;
  constructor(readonly max: number = CALENDAR_LIMITS.max_expansion_steps) {}
  /** Whether `steps` more would go past the cap. */
  exceeds(steps: number): boolean {
    return this.used + steps > this.max;
  }
  /** Count `steps`; throws 422 naming the limit once the cap is passed. */
  charge(steps: number): void {
    this.used += steps;
    if (this.used > this.max) throw budgetSpent(this.max);
  }
}

export const budgetSpent = (max: number) =>
  validationFailed(`Expanding the recurring events would take more than the ${max} steps a request may spend; ask for a shorter range.`, [
    { path: 'end', message: `more than ${max} expansion steps`, limit: 'max_expansion_steps', max },
  ]);

interface Expansion {
  starts: number[];
  /** Steps the expansion had taken when it found each start (same index as `starts`). */
  stepsAt: number[];
  meter: StepMeter;
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
export function wallIterator(s: SeriesRule, meter?: StepMeter): RuleIterator {
  // An all-day series lives on dates: its times of day are midnight whatever the rule says.
  const rrule = s.allDay ? s.rrule.replace(/;BY(HOUR|MINUTE|SECOND)=[^;]*/g, '') : s.rrule;
  const start = wallAt(s.start, s.tz);
  const dtstart = wallMsOf(s.allDay ? { ...start, hour: 0, minute: 0, second: 0 } : start);
  return iterateRule(parseRule(rrule, untilWall(s.rrule, s.tz, s.allDay)), dtstart, meter);
}

/** A fresh iterator of instants (not cached): the rule expanded in wall time, placed in the zone. */
export function seriesIterator(s: SeriesRule, meter?: StepMeter): RuleIterator {
  const iter = wallIterator(s, meter);
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
  const meter: StepMeter = { steps: 0 };
  const iter = seriesIterator(s, meter);
  e = { starts: [], stepsAt: [], meter, done: false, next: () => iter.next() };
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

/**
 * Start instants the rule gives in [from, to), ascending. With a budget, the request is charged
 * the steps the expansion from DTSTART takes to answer (up to the first start at or past `to`, or
 * all of a finished series), cached or not, and refused (422) past its cap.
 */
export function ruleStarts(s: SeriesRule, from: number, to: number, budget?: ExpansionBudget): number[] {
  const e = expansionOf(s);
  while (!e.done && (e.starts.length === 0 || e.starts[e.starts.length - 1]! < to)) {
    // The steps taken so far are needed by this answer: past the cap, stop before doing more.
    if (budget?.exceeds(e.meter.steps)) throw budgetSpent(budget.max);
    const t = e.next();
    if (t === undefined) e.done = true;
    // A wall time pushed forward out of a DST gap can land on the next occurrence: keep one.
    else if (e.starts.length === 0 || t > e.starts[e.starts.length - 1]!) {
      e.starts.push(t);
      e.stepsAt.push(e.meter.steps);
    }
  }
  const hi = lowerBound(e.starts, to);
  budget?.charge(hi < e.starts.length ? e.stepsAt[hi]! : e.meter.steps);
  return e.starts.slice(lowerBound(e.starts, from), hi);
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
