import { CALENDAR_LIMITS, type EventOverride, type EventUpdates } from '../../contracts/calendar.js';
import { notFound, validationFailed } from '../../errors.js';
import { type EventDraft, normalizeEvent } from './normalize-event.js';
import { iso, isSeries, ms, type StoredEvent, seriesRule } from './occurrences.js';
import { ruleStarts } from './recurrence.js';

/** Fields an occurrence override may change. */
const OCCURRENCE_FIELDS = ['title', 'scheduled_for', 'duration_minutes', 'description', 'location', 'status'] as const;

/**
 * The series `before` with one occurrence changed: its override holds what differs from the
 * series, normalized like an event; version + 1. The caller puts it in its transaction.
 */
export function withOccurrenceEdit(before: StoredEvent, recurrenceId: string, updates: EventUpdates, now: Date): StoredEvent {
  const rid = occurrenceId(before, recurrenceId);
  const extra = Object.keys(updates).filter((k) => !(OCCURRENCE_FIELDS as readonly string[]).includes(k));
  if (extra.length)
    throw validationFailed(
      `An occurrence can change only ${OCCURRENCE_FIELDS.join(', ')}; edit the series (without recurrence_id) for the rest.`,
      extra.map((k) => ({ path: `updates.${k}`, message: 'not editable on one occurrence' })),
    );
  const current = before.overrides?.find((o) => ms(o.recurrence_id) === rid);
  const base: EventDraft = {
    title: current?.title ?? before.title,
    scheduled_for: current?.scheduled_for ?? iso(rid),
    duration_minutes: current?.duration_minutes ?? before.duration_minutes,
    description: current?.description ?? before.description ?? null,
    location: current?.location ?? before.location ?? null,
    status: current?.status ?? before.status,
    all_day: before.all_day,
    timezone: before.timezone,
  };
  for (const [k, v] of Object.entries(updates)) if (v !== undefined) (base as unknown as Record<string, unknown>)[k] = v;
  const core = normalizeEvent(base, 'updates.');
  const o: EventOverride = { recurrence_id: iso(rid), scheduled_for: core.scheduled_for, duration_minutes: core.duration_minutes };
  if (core.title !== before.title) o.title = core.title;
  // A description or location taken off one instance is '' there: the instance has none, the series keeps its own.
  if (core.description !== before.description) o.description = core.description ?? '';
  if (core.location !== before.location) o.location = core.location ?? '';
  if (core.status !== before.status) o.status = core.status;
  const others = (before.overrides ?? []).filter((x) => ms(x.recurrence_id) !== rid);
  const maxOverrides = CALENDAR_LIMITS.max_overrides;
  if (others.length >= maxOverrides)
    throw validationFailed(`Series ${before.uid} already has ${others.length} changed occurrences; at most ${maxOverrides}.`, [
      { path: 'recurrence_id', message: `at most ${maxOverrides} changed occurrences per series`, limit: 'max_overrides', max: maxOverrides },
    ]);
  return {
    ...before,
    overrides: [...others, o].sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id)),
    version: before.version + 1,
    updated_at: now.toISOString(),
  };
}

/** The series `before` without one occurrence: an EXDATE added, its override dropped; version + 1. */
export function withOccurrenceRemoved(before: StoredEvent, recurrenceId: string, now: Date): { event: StoredEvent; rid: number } {
  const rid = occurrenceId(before, recurrenceId);
  const event: StoredEvent = {
    ...before,
    exdates: [...new Set([...(before.exdates ?? []), iso(rid)])].sort(),
    overrides: (before.overrides ?? []).filter((o) => ms(o.recurrence_id) !== rid),
    version: before.version + 1,
    updated_at: now.toISOString(),
  };
  if (!event.overrides?.length) delete event.overrides;
  return { event, rid };
}

/** The instant of an occurrence the series really has (404 otherwise). */
function occurrenceId(e: StoredEvent, recurrenceId: string): number {
  const rid = Date.parse(recurrenceId);
  if (!isSeries(e))
    throw validationFailed(`Event ${e.uid} does not recur; edit or remove it without recurrence_id.`, [
      { path: 'recurrence_id', message: 'the event does not recur' },
    ]);
  if (!hasOccurrence(e, rid)) throw notFound(`Event ${e.uid} has no occurrence starting ${iso(rid)}.`);
  return rid;
}

/** Whether the event has an occurrence whose original start is `rid`. */
export function hasOccurrence(e: StoredEvent, rid: number): boolean {
  if ((e.exdates ?? []).some((x) => ms(x) === rid)) return false;
  if (ms(e.scheduled_for) === rid && !e.rrule) return true;
  if ((e.rdates ?? []).some((x) => ms(x) === rid)) return true;
  if ((e.overrides ?? []).some((o) => ms(o.recurrence_id) === rid)) return true;
  const rule = seriesRule(e);
  return Boolean(rule && ruleStarts(rule, rid, rid + 1).length);
}
