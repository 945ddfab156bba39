import { CreateEventRequest, type ImportReport } from '../../contracts/calendar.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { nextTurn } from '../../platform/next-turn.js';
import type { Store, Tx } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { actorOf, type Principal } from '../principal.js';
import type { CheckedEvent, ImportedCore } from './import-check.js';
import type { ImportReader } from './import-reader.js';
import { dropKeptSource, keptSource, stageKeptSource } from './kept-source.js';
import type { StoredEvent } from './occurrences.js';

export { checkImported, type ImportedCore } from './import-check.js';

/** What the calendar service lends the import: its store, clock, trace records, hooks and publishing. */
export interface ImportPorts {
  store: Store;
  clock: Clock;
  /** The user's IANA zone (floating times, all-day dates). */
  zoneOf: (userId: string) => string;
  /** Reads and checks the file: a worker thread for large files (import-reader.ts). */
  reader: ImportReader;
  /** Runs `fn` once every earlier import of the same user has finished storing its events. */
  exclusive: <T>(userId: string, fn: () => Promise<T>) => Promise<T>;
  /** Stage the one `calendar_event` trace that summarises an import (not one per event: a file can hold thousands). */
  summarize: (tx: Tx, userId: string, summary: ImportSummary, actor: string, now: Date) => StoredTrace;
  /** Run the edit hooks (another area reacting to a changed event) in the import's transaction. */
  onUpdate: (tx: Tx, before: StoredEvent, after: StoredEvent, actor: string) => void;
  /** Announce a committed change (the summary trace once, with the last chunk). */
  publish: (kind: 'created' | 'updated', event: StoredEvent, trace?: StoredTrace) => void;
  /** Announce the summary trace. */
  publishTrace: (trace: StoredTrace) => void;
}

/** What the summary trace of an import records. */
export interface ImportSummary {
  import_id: string;
  name?: string;
  report: ImportReport;
  /** The events it updated as they were before, so `kairos undo` can put them back. */
  previous: StoredEvent[];
}

/** Fields of the create body an import replaces; `task_id` is kairos' own and survives a re-import. */
const IMPORTED_FIELDS = [...Object.keys(CreateEventRequest.shape).filter((k) => k !== 'task_id'), 'overrides'] as const;

/**
 * Events one transaction stores: 100, or fewer once it has run CHUNK_MS (events with thousands
 * of RDATEs). Its commit (journal record, indexes, commit listeners, /ws frames) runs in later
 * turns and is proportional to it: a chunk's work, never the file's. Over 64 traces a commit is
 * embedded by semantic search a slice per turn (builtin-space.ts), below that in the commit
 * itself, so chunks of ordinary events stay above it.
 */
const CHUNK_EVENTS = 100;
const CHUNK_MS = 20;

/**
 * Import an iCalendar text: each event is checked like a create (off the event loop for large
 * files); new UIDs are created, known ones updated when their content changed and skipped when
 * not (a re-import changes nothing). An event that cannot be read or breaks a limit is reported
 * with its UID and line; the rest is imported.
 *
 * The events are stored in chunks, one transaction each, giving the loop back between them, so
 * no single turn does the whole file's work. Imports of one user store one after the other, so
 * two imports of the same file at once give the answers of two in a row. A crash between two
 * chunks leaves the chunks before it stored (each durable, each with its traces); importing the
 * file again completes it, since known UIDs with the same content are skipped.
 */
export async function importCalendar(ports: ImportPorts, p: Principal, text: string, name?: string): Promise<ImportReport> {
  const prepared = await ports.reader.read(text, ports.zoneOf(p.userId));
  const report: ImportReport = { imported: 0, updated: 0, skipped: prepared.skipped, errors: prepared.errors, warnings: prepared.warnings };
  const now = ports.clock.now();
  const importId = newId('im', now.getTime());
  const previous: StoredEvent[] = [];
  await ports.exclusive(p.userId, () => storeInChunks(ports, p, prepared.checked, report, importId, previous));
  if (report.imported || report.updated) {
    const trace = await ports.store.transact((tx) => ports.summarize(tx, p.userId, { import_id: importId, name, report, previous }, actorOf(p), now));
    ports.publishTrace(trace);
    report.import_id = importId;
    report.trace_uid = trace.uid;
  }
  return report;
}

async function storeInChunks(
  ports: ImportPorts,
  p: Principal,
  checked: CheckedEvent[],
  report: ImportReport,
  importId: string,
  previous: StoredEvent[],
): Promise<void> {
  const userId = p.userId;
  const now = ports.clock.now();
  const nowIso = now.toISOString();
  const actor = actorOf(p);
  const byIcalUid = ports.store.simulate((tx) => icalUidKeys(tx, userId));
  let next = 0;
  while (next < checked.length) {
    const staged = await ports.store.transact((tx) => {
      const out: { kind: 'created' | 'updated'; event: StoredEvent }[] = [];
      const started = performance.now();
      for (let n = 0; next < checked.length && n < CHUNK_EVENTS && performance.now() - started < CHUNK_MS; n++) {
        const { uid, core, source } = checked[next++]!;
        const before = findImported(tx, userId, uid, byIcalUid);
        if (before && sameContent(before, core)) {
          // What kairos does not model may have changed (an attendee, an alarm): the file's newer text is the one kept (or none).
          if (before.source === 'import' && keptSource(tx, before.uid)?.ics !== source) keepFileText(tx, before, source);
          report.skipped++;
          continue;
        }
        let event: StoredEvent;
        if (before) event = { ...withoutImported(before), ...core, task_id: before.task_id, version: before.version + 1, updated_at: nowIso };
        else {
          // The UID is the key when no event holds it; otherwise a server id, and the UID is kept
          // beside it. Either way the event is found again through (user, UID), never by key alone.
          const key = tx.get('events', uid) ? newId('ev', now.getTime()) : uid;
          event = {
            uid: key,
            user_id: userId,
            ...(key !== uid ? { ical_uid: uid } : {}),
            ...core,
            task_id: null,
            source: 'import',
            import_id: importId,
            created_at: nowIso,
            updated_at: nowIso,
            version: 1,
          };
          if (key !== uid) byIcalUid.set(uid, key);
        }
        tx.put('events', event);
        // A synced event keeps its server's text, into which the imported change is written back.
        if (event.source === 'import') keepFileText(tx, event, source);
        if (before) {
          ports.onUpdate(tx, before, event, actor);
          previous.push(before);
        }
        out.push({ kind: before ? 'updated' : 'created', event });
        if (before) report.updated++;
        else report.imported++;
      }
      return out;
    });
    for (const s of staged) ports.publish(s.kind, s.event);
    await nextTurn();
  }
}

/** An imported event keeps its text in the file when that text is kept (import.ts), else none. */
function keepFileText(tx: Tx, event: StoredEvent, source: string | undefined): void {
  if (source !== undefined) stageKeptSource(tx, event, source);
  else dropKeptSource(tx, event.uid);
}

/**
 * Store keys of the user's events whose UID differs from their key (`ical_uid`: another user held
 * the UID). Only imports make such events, and one user's imports store one after the other, so
 * the map taken before the first chunk stays true but for removals, which findImported checks.
 */
function icalUidKeys(tx: Tx, userId: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of tx.byIndex('events', 'user_id', userId)) if (typeof e.ical_uid === 'string') out.set(e.ical_uid, e.uid);
  return out;
}

/**
 * The user's event an import of `uid` finds: the one holding it as `ical_uid`; else the one
 * keyed by it (an earlier import, or kairos' own export read back); else, for stores written
 * before events were keyed by (user, UID), the one keyed `<uid>~<user>`. Only the user's own
 * events are looked at, so no UID can reach another user's event.
 */
function findImported(tx: Tx, userId: string, uid: string, byIcalUid: Map<string, string>): StoredEvent | undefined {
  const key = byIcalUid.get(uid);
  if (key !== undefined) {
    const e = tx.get('events', key);
    if (e?.user_id === userId && e.ical_uid === uid) return e;
  }
  for (const k of [uid, `${uid}~${userId}`]) {
    const e = tx.get('events', k);
    if (e?.user_id === userId && e.ical_uid === undefined) return e;
  }
  return undefined;
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
