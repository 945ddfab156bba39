import type { EventStatus } from '../../contracts/calendar.js';
import { type ErrorDetail, validationFailed } from '../../errors.js';
import { canonicalRrule, RruleError } from '../../time/rrule.js';
import { instantOf, wallAt } from '../../time/zone-cache.js';
import { isTimeZone } from '../../time/zoned-time.js';
import { seriesLimitProblems } from './series-limits.js';

/** The parts of an event its owner sets (create input, or a stored event merged with updates). */
export interface EventDraft {
  title: string;
  scheduled_for: string;
  duration_minutes?: number;
  task_id?: string | null;
  tag?: string | null;
  description?: string | null;
  location?: string | null;
  all_day?: boolean;
  timezone: string;
  rrule?: string | null;
  rdates?: string[] | null;
  exdates?: string[] | null;
  status?: EventStatus;
}

/** The normalized fields of an event: UTC instants, canonical rule, whole days for all-day events. */
export interface EventCore {
  title: string;
  scheduled_for: string;
  duration_minutes: number;
  task_id: string | null;
  tag: string | null;
  description?: string;
  location?: string;
  all_day: boolean;
  timezone: string;
  rrule?: string;
  rdates?: string[];
  exdates?: string[];
  status: EventStatus;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight (in `tz`) of the date an input names: the date itself, or the date of the instant there. */
function midnightOf(input: string, tz: string): number {
  if (DATE_ONLY.test(input))
    return instantOf({ year: +input.slice(0, 4), month: +input.slice(5, 7), day: +input.slice(8, 10), hour: 0, minute: 0, second: 0 }, tz);
  const w = wallAt(Date.parse(input), tz);
  return instantOf({ ...w, hour: 0, minute: 0, second: 0 }, tz);
}

/**
 * Check and normalize a draft. Times become UTC; an all-day event starts at local midnight of its
 * date in its zone and lasts whole days; EXDATE/RDATE of an all-day series are snapped to dates.
 * Problems are 422 with one detail per field, paths prefixed by `where` (e.g. "updates.").
 */
export function normalizeEvent(d: EventDraft, where = ''): EventCore {
  const problems: ErrorDetail[] = [];
  const bad = (field: string, message: string) => problems.push({ path: `${where}${field}`, message });
  if (!isTimeZone(d.timezone)) bad('timezone', `unknown IANA time zone "${d.timezone}"`);
  const dateOnly = DATE_ONLY.test(d.scheduled_for);
  const allDay = d.all_day ?? dateOnly;
  if (dateOnly && !allDay) bad('scheduled_for', 'a date without a time needs all_day: true');
  if (d.duration_minutes !== undefined && !(d.duration_minutes > 0)) bad('duration_minutes', 'must be > 0');
  let rrule: string | undefined;
  if (d.rrule) {
    try {
      rrule = canonicalRrule(d.rrule);
    } catch (e) {
      if (!(e instanceof RruleError)) throw e;
      bad('rrule', `malformed RRULE: ${e.message}`);
      if (e.limit) Object.assign(problems[problems.length - 1]!, { limit: e.limit });
    }
  }
  if (d.exdates?.length && !rrule && !d.rdates?.length) bad('exdates', 'exdates need an rrule or rdates to exclude from');
  if (problems.length) throw validationFailed(`Invalid event: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);

  const tz = d.timezone;
  const snap = (iso: string) => new Date(allDay ? midnightOf(iso, tz) : Date.parse(iso)).toISOString();
  const instants = (list: string[] | null | undefined) => (list?.length ? [...new Set(list.map(snap))].sort() : undefined);
  const start = allDay ? midnightOf(d.scheduled_for, tz) : Date.parse(d.scheduled_for);
  const duration = allDay ? Math.max(1, Math.ceil((d.duration_minutes ?? 1440) / 1440)) * 1440 : (d.duration_minutes ?? 60);
  const core: EventCore = {
    title: d.title,
    scheduled_for: new Date(start).toISOString(),
    duration_minutes: duration,
    task_id: d.task_id ?? null,
    tag: d.tag ?? null,
    all_day: allDay,
    timezone: tz,
    status: d.status ?? 'confirmed',
  };
  if (d.description) core.description = d.description;
  if (d.location) core.location = d.location;
  if (rrule) core.rrule = rrule;
  const rdates = instants(d.rdates);
  const exdates = instants(d.exdates);
  if (rdates) core.rdates = rdates;
  if (exdates) core.exdates = exdates;
  const limits = seriesLimitProblems(core, where);
  if (limits.length) throw validationFailed(`The event breaks a calendar limit: ${limits.map((p) => `${p.path}: ${p.message}`).join('; ')}`, limits);
  return core;
}
