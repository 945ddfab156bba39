import { z } from 'zod';
import { CreateEventRequest, type EventOverride } from '../../contracts/calendar.js';
import { AppError, type ErrorDetail, validationFailed } from '../../errors.js';
import type { ImportedEvent, parseIcs } from '../../ical/import.js';
import type { Problem } from '../../ical/scan.js';
import { resolveImported } from './import-resolve.js';
import { type EventCore, normalizeEvent } from './normalize-event.js';
import { checkSeriesLimits } from './series-limits.js';

/**
 * The pure half of an import: read the file and check every event as a create would. No store,
 * no clock: it runs in the import's worker thread for large files (import-reader.ts), or on the
 * event loop for small ones, one event per step.
 */

/** The fields an import sets: an event's owner-set fields (create's body) and its overrides. */
export type ImportedCore = EventCore & { overrides?: EventOverride[] };

/** An event of the file that passed create's checks, ready to be stored under its UID. */
export interface CheckedEvent {
  uid: string;
  core: ImportedCore;
  /** The event's own text in the file, kept beside it (kept-source.ts). */
  source?: string;
}

/** What a file holds, checked: plain data (it crosses from the worker by structured clone). */
export interface PreparedImport {
  checked: CheckedEvent[];
  errors: Problem[];
  warnings: Problem[];
  /** Components that are not events (VTODO, VJOURNAL, VFREEBUSY…). */
  skipped: number;
}

const Create = CreateEventRequest.shape;
/**
 * Create's body check, its zone apart: the zone check builds an Intl formatter (~0.2 ms), paid
 * once per zone here rather than once per event of a file that may hold tens of thousands.
 */
const CreateBesidesZone = CreateEventRequest.omit({ timezone: true });
/** Zones create's check has accepted (bounded by the runtime's zone list). */
const acceptedZones = new Set<string>();
/** An overridden instance is held to the create limits of the fields it can change. */
const OverrideFields = z.object({
  title: Create.title.optional(),
  description: Create.description,
  location: Create.location,
  duration_minutes: Create.duration_minutes,
});
/** Overridden instances count against the same cap as RDATE and EXDATE lists. */
const OverrideIds = Create.exdates;

const details = (issues: z.ZodError['issues'], prefix: string): ErrorDetail[] =>
  issues.map((i) => ({ path: [prefix, ...i.path].filter((p) => p !== '').join('.'), message: i.message }));

/**
 * Check one imported event exactly as POST /calendar/create checks its body, and normalize it the
 * same way. Throws create's 422 (an AppError) naming every problem; the import reports it as
 * this event's error.
 */
export function checkImported(ev: ImportedEvent): ImportedCore {
  const body = {
    title: ev.title,
    scheduled_for: ev.scheduled_for,
    // iCalendar has instants (DTSTART without DTEND); create has no zero length, so 0 skips the check.
    ...(ev.duration_minutes > 0 ? { duration_minutes: ev.duration_minutes } : {}),
    ...(ev.tag !== undefined ? { tag: ev.tag } : {}),
    ...(ev.description !== undefined ? { description: ev.description } : {}),
    ...(ev.location !== undefined ? { location: ev.location } : {}),
    all_day: ev.all_day,
    timezone: ev.timezone,
    ...(ev.rrule !== undefined ? { rrule: ev.rrule } : {}),
    ...(ev.rdates?.length ? { rdates: ev.rdates } : {}),
    ...(ev.exdates?.length ? { exdates: ev.exdates } : {}),
    status: ev.status,
  };
  const problems: ErrorDetail[] = [];
  const { timezone, ...rest } = body;
  const parsed = CreateBesidesZone.safeParse(rest);
  if (!parsed.success) problems.push(...details(parsed.error.issues, ''));
  if (!acceptedZones.has(timezone)) {
    const zone = Create.timezone.safeParse(timezone);
    if (zone.success) acceptedZones.add(timezone);
    else problems.push(...details(zone.error.issues, 'timezone'));
  }
  const overrides = ev.overrides ?? [];
  const ids = OverrideIds.safeParse(overrides.map((o) => o.recurrence_id));
  if (!ids.success) problems.push(...details(ids.error.issues, 'overrides'));
  else
    overrides.forEach((o, i) => {
      const r = OverrideFields.safeParse({
        title: o.title,
        description: o.description,
        location: o.location,
        ...(o.duration_minutes > 0 ? { duration_minutes: o.duration_minutes } : {}),
      });
      if (!r.success) problems.push(...details(r.error.issues, `overrides.${i}`));
    });
  if (problems.length || !parsed.success) throw validationFailed(`Invalid event: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);

  const core: ImportedCore = normalizeEvent({ ...parsed.data, timezone });
  if (!(ev.duration_minutes > 0) && !core.all_day) core.duration_minutes = 0;
  // normalizeEvent has applied create's per-series limits (rule density, RDATE/EXDATE counts, the
  // expansion budget); overrides come only from files, so their cap is checked here, by the same function.
  if (overrides.length) {
    core.overrides = overrides;
    checkSeriesLimits(core);
  }
  return core;
}

/**
 * The iCalendar parser (`ical/import.ts`), passed in rather than imported: it brings node-ical,
 * rrule-temporal and two Temporal polyfills (a fifth of the daemon's code), which the daemon loads
 * at its first import instead of at every start.
 */
export type IcsParser = typeof parseIcs;

/**
 * Read and check a file, one step per event: the generator yields after the parse and after each
 * event's check (at most one expansion budget), so a caller on the event loop can give the loop
 * back between steps; run to its end, it returns the prepared import. The parse itself is one
 * step: callers on the loop give it only small files.
 */
export function* prepareSteps(text: string, defaultTz: string, parse: IcsParser): Generator<void, PreparedImport, void> {
  const parsed = parse(text, defaultTz);
  yield;
  const errors: Problem[] = [...parsed.errors];
  const warnings: Problem[] = [...parsed.warnings];
  const checked: CheckedEvent[] = [];
  for (const read of parsed.events) {
    const where = { uid: read.uid, ...(read.line !== undefined ? { line: read.line } : {}) };
    const ev = resolveImported(read, (message) => warnings.push({ ...where, message }));
    if (ev.exdates?.length && !ev.rrule && !ev.rdates?.length) {
      // Create refuses EXDATEs with nothing to exclude from; in a file they are harmless noise.
      warnings.push({ ...where, message: 'ignored EXDATE: the event does not recur' });
      delete ev.exdates;
    }
    try {
      checked.push({ uid: ev.uid, core: checkImported(ev), ...(read.source !== undefined ? { source: read.source } : {}) });
    } catch (e) {
      if (!(e instanceof AppError) || e.status !== 422) throw e;
      errors.push({ ...where, message: e.message });
    }
    yield;
  }
  return { checked, errors, warnings, skipped: parsed.skipped };
}

/** prepareSteps run to its end in one go (the reader's child process). */
export function prepareImport(text: string, defaultTz: string, parse: IcsParser): PreparedImport {
  const steps = prepareSteps(text, defaultTz, parse);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
