import type { EventOverride } from '../../contracts/calendar.js';
import { CALENDAR_LIMITS } from '../../contracts/calendar-limits.js';
import { type ErrorDetail, validationFailed } from '../../errors.js';
import { canonicalRrule, RruleError } from '../../time/rrule.js';
import { wallAt } from '../../time/zone-cache.js';
import { MAX_EMPTY_YEARS, type StepMeter } from './expand.js';
import { wallIterator } from './recurrence.js';

/** What the limits look at: an event as stored, created, edited or imported. */
export interface SeriesShape {
  scheduled_for: string;
  timezone: string;
  all_day: boolean;
  rrule?: string | null;
  rdates?: string[] | null;
  exdates?: string[] | null;
  overrides?: EventOverride[] | null;
}

/**
 * How far from DTSTART a new rule is expanded on trial: a year, or its first occurrences (the
 * density cap itself is checked on the rule's text; the trial proves the expansion ends its steps
 * and counts the days RDATEs share with the rule).
 */
const TRIAL_DAYS = 366;
const TRIAL_OCCURRENCES = 1000;

const problem = (path: string, limit: keyof typeof CALENDAR_LIMITS, message: string): ErrorDetail => ({ path, message, limit, max: CALENDAR_LIMITS[limit] });

/**
 * The limits one event breaks, as validation details (empty when it keeps them all): counts of
 * RDATE/EXDATE/overrides, a rule the expander refuses or that is denser than
 * `max_occurrences_per_day`, RDATEs piling more starts than that on one local day, and a trial
 * expansion of the rule's first year under the step cap (`max_expansion_steps`). `where` prefixes the paths.
 */
export function seriesLimitProblems(e: SeriesShape, where = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const L = CALENDAR_LIMITS;
  if ((e.rdates?.length ?? 0) > L.max_rdates)
    out.push(problem(`${where}rdates`, 'max_rdates', `${e.rdates!.length} RDATEs; at most ${L.max_rdates} per event`));
  if ((e.exdates?.length ?? 0) > L.max_exdates)
    out.push(problem(`${where}exdates`, 'max_exdates', `${e.exdates!.length} EXDATEs; at most ${L.max_exdates} per event`));
  if ((e.overrides?.length ?? 0) > L.max_overrides)
    out.push(problem(`${where}overrides`, 'max_overrides', `${e.overrides!.length} changed occurrences; at most ${L.max_overrides} per series`));
  if (out.length) return out;

  // Starts per local day, keyed by the day's number (wall ms / one day).
  const perDay = new Map<number, number>();
  const count = (wallMs: number) => {
    const day = Math.floor(wallMs / 86_400_000);
    const n = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, n);
    return n;
  };
  const wallOf = (instant: number) => {
    const w = wallAt(instant, e.timezone);
    return Date.UTC(w.year, w.month - 1, w.day);
  };
  for (const r of e.rdates ?? []) {
    if (count(wallOf(Date.parse(r))) > L.max_occurrences_per_day) {
      out.push(problem(`${where}rdates`, 'max_occurrences_per_day', `more than ${L.max_occurrences_per_day} RDATEs on ${r.slice(0, 10)}`));
      return out;
    }
  }

  if (!e.rrule) return out;
  let rrule: string;
  try {
    rrule = canonicalRrule(e.rrule);
  } catch (err) {
    if (!(err instanceof RruleError)) throw err;
    const d: ErrorDetail = { path: `${where}rrule`, message: `malformed RRULE: ${err.message}` };
    if (err.limit) Object.assign(d, { limit: err.limit, max: CALENDAR_LIMITS[err.limit as keyof typeof CALENDAR_LIMITS] });
    return [d];
  }
  // The rule's own starts, one local day at a time: a first year expanded for real, under the
  // step cap, so whatever the static checks missed is refused here and not in a later listing.
  const start = Date.parse(e.scheduled_for);
  const meter: StepMeter = { steps: 0 };
  const iter = wallIterator({ key: '', start, tz: e.timezone, allDay: e.all_day, rrule }, meter);
  const horizon = wallOf(start) + (TRIAL_DAYS + 1) * 86_400_000;
  const first = iter.next();
  if (first === undefined && !e.rdates?.length) {
    out.push({ path: `${where}rrule`, message: `RRULE ${rrule} gives no occurrence at or after scheduled_for (none within ${MAX_EMPTY_YEARS} years)` });
    return out;
  }
  let n = 0;
  for (let t = first; t !== undefined && t < horizon && n < TRIAL_OCCURRENCES; t = iter.next(), n++) {
    if (meter.steps > L.max_expansion_steps) {
      out.push(problem(`${where}rrule`, 'max_expansion_steps', `RRULE ${rrule}: expanding its first occurrences takes over ${L.max_expansion_steps} steps`));
      break;
    }
    if (count(t) > L.max_occurrences_per_day) {
      out.push(
        problem(`${where}rrule`, 'max_occurrences_per_day', `RRULE ${rrule} (with the RDATEs) gives more than ${L.max_occurrences_per_day} starts on one day`),
      );
      break;
    }
  }
  return out;
}

/**
 * Refuse (422 `validation_failed`, one detail per broken limit, each naming it) an event that
 * breaks a per-event limit. The API calls it on create and edit; the .ics import calls it per
 * event and reports the message in its `errors`.
 */
export function checkSeriesLimits(e: SeriesShape, where = ''): void {
  const problems = seriesLimitProblems(e, where);
  if (problems.length) throw validationFailed(`The event breaks a calendar limit: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);
}
