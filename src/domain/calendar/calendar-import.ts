import { z } from 'zod';
import { CreateEventRequest, type EventOverride, type ImportReport } from '../../contracts/calendar.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { AppError, validationFailed, type ErrorDetail } from '../../errors.js';
import { parseIcs, type ImportedEvent } from '../../ical/import.js';
import type { Problem } from '../../ical/scan.js';
import type { Store, Tx } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { actorOf, type Principal } from '../principal.js';
import type { StoredEvent } from './event.js';
import { normalizeEvent, type EventCore } from './normalize.js';
import { checkSeriesLimits } from './series-limits.js';

/** What the calendar service lends the import: its store, clock, trace records, hooks and publishing. */
export interface ImportPorts {
  store: Store;
  clock: Clock;
  /** The user's IANA zone (floating times, all-day dates). */
  zoneOf: (userId: string) => string;
  /** Stage the `calendar_event` trace of a change in the import's transaction. */
  record: (tx: Tx, kind: 'created' | 'updated', event: StoredEvent, actor: string, now: Date, before?: StoredEvent) => StoredTrace;
  /** Run the edit hooks (another area reacting to a changed event) in the import's transaction. */
  onUpdate: (tx: Tx, before: StoredEvent, after: StoredEvent, actor: string) => void;
  /** Announce a committed change. */
  publish: (kind: 'created' | 'updated', event: StoredEvent, trace: StoredTrace) => void;
}

/** The fields an import sets: an event's owner-set fields (create's body) and its overrides. */
export type ImportedCore = EventCore & { overrides?: EventOverride[] };

/** Fields of the create body an import replaces; `task_id` is kairos' own and survives a re-import. */
const IMPORTED_FIELDS = [...Object.keys(CreateEventRequest.shape).filter((k) => k !== 'task_id'), 'overrides'] as const;

const Create = CreateEventRequest.shape;
/**
 * Create's body check, its zone apart: the zone check builds an Intl formatter (~0.2 ms), paid
 * once per zone here rather than once per event of a file that may hold tens of thousands.
 */
const CreateBesidesZone = CreateEventRequest.omit({ timezone: true });
/** Zones create's check has accepted (bounded by the runtime's zone list). */
const acceptedZones = new Set<string>();
/** An overridden instance is held to the create limits of the fields it can change. */
const OverrideFields = z.object({ title: Create.title.optional(), description: Create.description, location: Create.location, duration_minutes: Create.duration_minutes });
/** Overridden instances count against the same cap as RDATE and EXDATE lists. */
const OverrideIds = Create.exdates;

const details = (issues: z.ZodError['issues'], prefix: string): ErrorDetail[] => issues.map((i) => ({ path: [prefix, ...i.path].filter((p) => p !== '').join('.'), message: i.message }));

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
      const r = OverrideFields.safeParse({ title: o.title, description: o.description, location: o.location, ...(o.duration_minutes > 0 ? { duration_minutes: o.duration_minutes } : {}) });
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
 * Import an iCalendar text as ONE transaction: each event is checked like a create; new UIDs are
 * created, known ones updated when their content changed and skipped when not (a re-import changes
 * nothing). An event that cannot be read or breaks a limit is reported with its UID and line; the
 * rest is imported.
 */
export async function importCalendar(ports: ImportPorts, p: Principal, text: string): Promise<ImportReport> {
  const userId = p.userId;
  const parsed = parseIcs(text, ports.zoneOf(userId));
  const errors: Problem[] = [...parsed.errors];
  const warnings: Problem[] = [...parsed.warnings];
  const checked: { ev: ImportedEvent; core: ImportedCore }[] = [];
  for (const ev of parsed.events) {
    const where = { uid: ev.uid, ...(ev.line !== undefined ? { line: ev.line } : {}) };
    if (ev.exdates?.length && !ev.rrule && !ev.rdates?.length) {
      // Create refuses EXDATEs with nothing to exclude from; in a file they are harmless noise.
      warnings.push({ ...where, message: 'ignored EXDATE: the event does not recur' });
      delete ev.exdates;
    }
    try {
      checked.push({ ev, core: checkImported(ev) });
    } catch (e) {
      if (!(e instanceof AppError) || e.status !== 422) throw e;
      errors.push({ ...where, message: e.message });
    }
  }

  const now = ports.clock.now();
  const actor = actorOf(p);
  const report: ImportReport = { imported: 0, updated: 0, skipped: parsed.skipped, errors, warnings };
  const staged = await ports.store.transact((tx) => {
    const out: { kind: 'created' | 'updated'; event: StoredEvent; trace: StoredTrace }[] = [];
    const mine = importedByUid(tx, userId);
    const nowIso = now.toISOString();
    for (const { ev, core } of checked) {
      const before = mine.get(ev.uid);
      if (before && sameContent(before, core)) {
        report.skipped++;
        continue;
      }
      let event: StoredEvent;
      if (before) event = { ...withoutImported(before), ...core, task_id: before.task_id, version: before.version + 1, updated_at: nowIso };
      else {
        // The UID is the key when no event holds it; otherwise a server id, and the UID is kept
        // beside it. Either way the event is found again through (user, UID), never by key alone.
        const key = tx.get('events', ev.uid) ? newId('ev', now.getTime()) : ev.uid;
        event = { uid: key, user_id: userId, ...(key !== ev.uid ? { ical_uid: ev.uid } : {}), ...core, task_id: null, source: 'import', created_at: nowIso, updated_at: nowIso, version: 1 };
      }
      tx.put('events', event);
      const trace = ports.record(tx, before ? 'updated' : 'created', event, actor, now, before);
      if (before) ports.onUpdate(tx, before, event, actor);
      out.push({ kind: before ? 'updated' : 'created', event, trace });
      if (before) report.updated++;
      else report.imported++;
    }
    return out;
  });
  for (const s of staged) ports.publish(s.kind, s.event, s.trace);
  return report;
}

/**
 * The user's events by the UID an import would find them under: `ical_uid` when the store key had
 * to differ from the UID; else the key itself (an earlier import, or kairos' own export read
 * back); else, for stores written before events were keyed by (user, UID), a key `<uid>~<user>`.
 * Only the user's own events are looked at, so no UID can reach another user's event.
 */
function importedByUid(tx: Tx, userId: string): Map<string, StoredEvent> {
  const own = tx.byIndex('events', 'user_id', userId);
  const byUid = new Map<string, StoredEvent>();
  const legacySuffix = `~${userId}`;
  for (const e of own) if (e.ical_uid === undefined && e.uid.endsWith(legacySuffix)) byUid.set(e.uid.slice(0, -legacySuffix.length), e);
  for (const e of own) if (e.ical_uid === undefined) byUid.set(e.uid, e);
  for (const e of own) if (typeof e.ical_uid === 'string') byUid.set(e.ical_uid, e);
  return byUid;
}

/** A stored event without the fields an import sets, so a newly imported core replaces them wholesale. */
function withoutImported(e: StoredEvent): StoredEvent {
  const copy: Record<string, unknown> = { ...e };
  for (const k of IMPORTED_FIELDS) delete copy[k];
  return copy as StoredEvent;
}

/** Whether a stored event already holds what an import would write. */
function sameContent(e: StoredEvent, core: ImportedCore): boolean {
  const c = core as unknown as Record<string, unknown>;
  const stored = e as Record<string, unknown>;
  return IMPORTED_FIELDS.every((k) => JSON.stringify(stored[k] ?? null) === JSON.stringify(c[k] ?? null));
}
