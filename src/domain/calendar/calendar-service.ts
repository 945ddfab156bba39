import type { CreateEventInput, EventSource, EventUpdates, ImportReport } from '../../contracts/calendar.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { AppError, conflict, notFound, validationFailed } from '../../errors.js';
import { nextTurn } from '../../platform/next-turn.js';
import type { Store, Tx } from '../../store/store.js';
import { addDays, parseLocalDate } from '../../time/local-date.js';
import { startOfLocalDay } from '../../time/zoned-time.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { EventBus } from '../live-bus.js';
import { stageTrace } from '../memory/stage-trace.js';
import { actorOf, assertOwner, type Principal } from '../principal.js';
import { tempoProfileParts } from '../tempo/tempo-service.js';
import { importCalendar } from './calendar-import.js';
import { type ChangeKind, stageChangeTrace } from './change-trace.js';
import { conflictsOf } from './conflicts.js';
import { coreOf, stripCore } from './editable-fields.js';
import { busyIntervals, type ListingQuery, listEvents } from './event-listing.js';
import { exportIcs, type IcsAnswer } from './export-ics.js';
import { ExportStamps } from './export-stamps.js';
import { applyFeed, type FeedApplied, type FeedPorts, type FeedRef, feedEvents, removeFeed } from './feed-apply.js';
import { freeTime } from './free-time.js';
import type { PreparedImport } from './import-check.js';
import { ImportReader } from './import-reader.js';
import { stageImportSummary } from './import-summary.js';
import { dropKeptSource } from './kept-source.js';
import { listingPage } from './listing-page.js';
import { type EventCore, type EventDraft, normalizeEvent } from './normalize-event.js';
import { hasOccurrence, withOccurrenceEdit, withOccurrenceRemoved } from './occurrence-edit.js';
import { type Busy, type EventItem, iso, ms, type StoredEvent } from './occurrences.js';
import { assertWritable } from './read-only.js';
import type { ExpansionBudget } from './recurrence.js';

/** Runs inside an edit's or removal's transaction (the agent area marks the producing plan edited). */
export type EventHook = (tx: Tx, before: StoredEvent, after: StoredEvent | undefined, actor: string) => void;

export interface CalendarDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  /** The user's IANA zone (default zone of events, floating times of imports). */
  zoneOf: (userId: string) => string;
  /** Publish a committed trace (memory.announce). */
  announceTrace?: (trace: StoredTrace, kind: 'created' | 'updated') => void;
  /** Reads imported files (default: large ones in a worker thread, see import-reader.ts). */
  importReader?: ImportReader;
}

interface Staged {
  kind: ChangeKind;
  event: StoredEvent;
  trace?: StoredTrace;
}

/**
 * Calendar events: create/list/edit/remove with recurrence and time zones, conflicts, and .ics
 * import/export. Every change through the API records a `calendar_event` trace in the same
 * transaction; the agent area stages events in its own transactions with stageCreate/stageEdit.
 */
export class CalendarService {
  private readonly hooks: EventHook[] = [];
  private readonly reader: ImportReader;
  /** Per user, the end of the last import queued to store its events (they store one after the other). */
  private readonly importing = new Map<string, Promise<void>>();
  private readonly stamps: ExportStamps;

  constructor(private readonly d: CalendarDeps) {
    this.reader = d.importReader ?? new ImportReader();
    this.stamps = new ExportStamps(d.store, d.clock);
    // An event's kept iCalendar text goes with the event, whichever path removes it.
    this.hooks.push((tx, before, after) => {
      if (!after) dropKeptSource(tx, before.uid);
    });
  }

  /** Let another area react to an edit or removal atomically. */
  onEdit(hook: EventHook): void {
    this.hooks.push(hook);
  }

  // ------------------------------------------------------------------ reads

  /** One event of the caller (404 unknown, 403 another user's). */
  get(p: Principal, uid: string): StoredEvent {
    const e = this.d.store.get('events', uid);
    if (!e) throw notFound(`No event ${uid}.`);
    assertOwner(p, e.user_id);
    return e;
  }

  /** Events and occurrences of a user overlapping a range, bounded and sorted (event-listing.ts). */
  list(userId: string, q: ListingQuery): Promise<EventItem[]> {
    return listEvents(this.d.store, userId, this.d.zoneOf(userId), this.d.clock.now(), q);
  }

  /** One page of a listing, from `cursor` on (listing-page.ts): what `GET /calendar/events` answers. */
  async listPage(userId: string, q: ListingQuery & { cursor?: string | undefined }): Promise<{ events: EventItem[]; next_cursor: string | null }> {
    return listingPage(await this.list(userId, q), q.cursor);
  }

  /** Free time on one local day (`kairos cal free`): see free-time.ts. */
  async free(userId: string, q: { date: string; duration_minutes: number; tag?: string }) {
    const zone = this.d.zoneOf(userId);
    const date = parseLocalDate(q.date);
    if (!date) throw validationFailed(`${q.date} is not a calendar date.`, [{ path: 'date', message: 'not a real date' }]);
    const start = startOfLocalDay(date, zone).toISOString();
    const end = startOfLocalDay(addDays(date, 1), zone).toISOString();
    const items = await this.list(userId, { start, end });
    const parts = tempoProfileParts(this.d.store);
    const profile = { time_ranges: parts.tempo(userId).time_ranges, blocked: parts.constraints(userId).blocked };
    return freeTime({ date, zone, minutes: q.duration_minutes, profile, ...(q.tag ? { tag: q.tag } : {}), items, now: this.d.clock.now().getTime() });
  }

  /** What keeps a user busy in [start, end), from the store or a transaction's view (event-listing.ts). */
  busy(
    userId: string,
    start: Date | number | string,
    end: Date | number | string,
    source: Pick<Tx, 'byIndex'> = this.d.store,
    budget?: ExpansionBudget,
    limit = Infinity,
  ): Busy[] {
    return busyIntervals(source, userId, start, end, budget, limit);
  }

  /** The user's events overlapping an occurrence of `e` (conflicts.ts). */
  conflictsOf(e: StoredEvent): Promise<{ uids: string[]; truncated: boolean }> {
    return conflictsOf(this.d.store, e);
  }

  // ------------------------------------------------------------------ writes (routes)

  /**
   * Create an event. Stretches of work, each given its own turn of the event loop after the
   * request's schema check: normalizing the event (thousands of RDATEs and EXDATEs) and checking
   * its limits, storing it with its trace, then the conflict sweep over the user's other events
   * (a slice per turn), against the store as committed.
   */
  async create(p: Principal, input: CreateEventInput): Promise<StoredEvent & { conflicts: string[]; conflicts_truncated?: true }> {
    const now = this.d.clock.now();
    const actor = actorOf(p);
    await nextTurn();
    const core = normalizeEvent({ ...input, timezone: input.timezone ?? this.d.zoneOf(p.userId) });
    await nextTurn();
    const out = await this.d.store.transact((tx) => {
      const event = this.stageCore(tx, p.userId, core, now, 'api');
      const trace = stageChangeTrace(tx, 'created', event, actor, now);
      return { event, trace };
    });
    this.publish({ kind: 'created', event: out.event, trace: out.trace });
    await nextTurn();
    const conflicts = await this.conflictsOf(out.event);
    return { ...out.event, conflicts: conflicts.uids, ...(conflicts.truncated ? { conflicts_truncated: true as const } : {}) };
  }

  /** Change an event; `undoOf` marks the change as taking back the edit of that trace (`kairos undo`). */
  async edit(
    p: Principal,
    req: { uid: string; updates: EventUpdates; expected_version?: number; recurrence_id?: string },
    undoOf?: string,
  ): Promise<StoredEvent> {
    const now = this.d.clock.now();
    const actor = actorOf(p);
    const staged = await this.d.store.transact((tx) => {
      const before = this.owned(tx, p, req.uid);
      this.checkVersion(before, req.expected_version);
      const event = req.recurrence_id
        ? this.putEvent(tx, withOccurrenceEdit(before, req.recurrence_id, req.updates, now))
        : this.stageEdit(tx, before.user_id, req.uid, req.updates, actor, now);
      const trace = stageChangeTrace(tx, 'updated', event, actor, now, before, { occurrence: req.recurrence_id, undoOf });
      for (const h of this.hooks) h(tx, before, event, actor);
      return { kind: 'updated' as const, event, trace };
    });
    this.publish(staged);
    return staged.event;
  }

  /** Remove an event or one occurrence; `undoOf` marks the removal as taking back the trace that added it (`kairos undo`). */
  async remove(p: Principal, uid: string, recurrenceId?: string, undoOf?: string): Promise<{ deleted: string; recurrence_id?: string }> {
    const now = this.d.clock.now();
    const actor = actorOf(p);
    const staged = await this.d.store.transact((tx): Staged => {
      const before = this.owned(tx, p, uid);
      if (recurrenceId) {
        const { event, rid } = withOccurrenceRemoved(before, recurrenceId, now);
        tx.put('events', event);
        const trace = stageChangeTrace(tx, 'updated', event, actor, now, before, { occurrence: iso(rid), occurrenceRemoved: true });
        for (const h of this.hooks) h(tx, before, event, actor);
        return { kind: 'updated', event, trace };
      }
      tx.delete('events', uid);
      const trace = stageChangeTrace(tx, 'removed', before, actor, now, undefined, { undoOf, previous: before });
      for (const h of this.hooks) h(tx, before, undefined, actor);
      return { kind: 'removed', event: before, trace };
    });
    this.publish(staged);
    return { deleted: uid, ...(recurrenceId ? { recurrence_id: new Date(recurrenceId).toISOString() } : {}) };
  }

  /**
   * Put back a removed event under its own uid, as it was (`kairos undo` of a removal or of an
   * import's update), recording the change as the undo of trace `undoOf`.
   */
  async restore(p: Principal, previous: StoredEvent, undoOf: string): Promise<StoredEvent> {
    const now = this.d.clock.now();
    const actor = actorOf(p);
    const staged = await this.d.store.transact((tx): Staged => {
      if (previous.user_id !== p.userId) throw new AppError(403, 'forbidden', 'You can only access your own data.');
      const current = tx.get('events', previous.uid);
      const event: StoredEvent = { ...previous, version: Math.max(previous.version, current?.version ?? 0) + 1, updated_at: now.toISOString() };
      tx.put('events', event);
      const kind = current ? 'updated' : 'created';
      const trace = stageChangeTrace(tx, kind, event, actor, now, current, { undoOf });
      if (current) for (const h of this.hooks) h(tx, current, event, actor);
      return { kind, event, trace };
    });
    this.publish(staged);
    return staged.event;
  }

  /**
   * Remove every event an import created, or every event of a source, in chunks (one transaction
   * each, the loop given back between them), leaving one summary trace instead of one per event.
   */
  async removeMany(p: Principal, which: { import_id?: string; source?: EventSource }): Promise<{ removed: number; trace_uid?: string }> {
    const userId = p.userId;
    const actor = actorOf(p);
    const hit = (e: StoredEvent) => (which.import_id ? e.import_id === which.import_id : e.source === which.source);
    return this.afterImportsOf(userId, async () => {
      const now = this.d.clock.now();
      const uids = this.d.store
        .byIndex('events', 'user_id', userId)
        .filter(hit)
        .map((e) => e.uid);
      let removed = 0;
      for (let at = 0; at < uids.length; at += 100) {
        const gone = await this.d.store.transact((tx) => {
          const out: StoredEvent[] = [];
          for (const uid of uids.slice(at, at + 100)) {
            const before = tx.get('events', uid);
            if (!before || !hit(before)) continue;
            tx.delete('events', uid);
            for (const h of this.hooks) h(tx, before, undefined, actor);
            out.push(before);
          }
          return out;
        });
        removed += gone.length;
        for (const e of gone) this.publish({ kind: 'removed', event: e });
        await nextTurn();
      }
      if (!removed) return { removed };
      const what = which.import_id ? `the events of import ${which.import_id}` : `the events from ${which.source}`;
      const trace = await this.d.store.transact((tx) =>
        stageTrace(
          tx,
          {
            user_id: userId,
            type: 'calendar_event',
            task_id: 'calendar',
            content: `Removed ${what}: ${removed} event${removed === 1 ? '' : 's'}.`,
            actor,
            fields: { action: 'removed_many', removed, ...which },
          },
          now,
        ),
      );
      this.d.announceTrace?.(trace, 'created');
      return { removed, trace_uid: trace.uid };
    });
  }

  // ------------------------------------------------------------------ staging (also used by the agent area)

  /**
   * Stage a new event in the caller's transaction and return it. No trace is recorded here: the
   * caller records its own (the routes a `calendar_event` trace, the executor one under its plan).
   */
  stageCreate(tx: Tx, userId: string, input: CreateEventInput & { source?: EventSource }, _actor: string, now: Date, source: EventSource = 'api'): StoredEvent {
    const { source: given, ...fields } = input;
    return this.stageCore(tx, userId, normalizeEvent({ ...fields, timezone: fields.timezone ?? this.d.zoneOf(userId) }), now, given ?? source);
  }

  /** Stage a new event from its normalized fields. */
  private stageCore(tx: Tx, userId: string, core: EventCore, now: Date, source: EventSource): StoredEvent {
    const nowIso = now.toISOString();
    const event: StoredEvent = { uid: newId('ev', now.getTime()), user_id: userId, ...core, source, created_at: nowIso, updated_at: nowIso, version: 1 };
    tx.put('events', event);
    return event;
  }

  /**
   * Stage an edit of a whole event (series) in the caller's transaction: null clears an optional
   * field; the result is normalized like a new event; version + 1. Overrides of occurrences the
   * new rule no longer has are dropped. Returns the new event (no trace; see stageCreate).
   */
  stageEdit(tx: Tx, userId: string, uid: string, updates: EventUpdates, _actor: string, now: Date): StoredEvent {
    const before = tx.get('events', uid);
    if (!before) throw notFound(`No event ${uid}.`);
    if (before.user_id !== userId) throw new AppError(403, 'forbidden', 'You can only access your own data.');
    assertWritable(before);
    const draft: EventDraft = { ...coreOf(before) };
    for (const [k, v] of Object.entries(updates)) if (v !== undefined) (draft as unknown as Record<string, unknown>)[k] = v;
    // A new start without all_day keeps an all-day event all-day unless it names a time.
    if (updates.scheduled_for !== undefined && updates.all_day === undefined && before.all_day && !/^\d{4}-\d{2}-\d{2}$/.test(updates.scheduled_for))
      draft.all_day = false;
    if (updates.all_day === false && updates.duration_minutes === undefined && before.all_day) draft.duration_minutes = 60;
    const core = normalizeEvent(draft, 'updates.');
    const next: StoredEvent = { ...stripCore(before), ...core, version: before.version + 1, updated_at: now.toISOString() };
    if (before.overrides?.length) {
      const kept = before.overrides.filter((o) => hasOccurrence(next, ms(o.recurrence_id)));
      if (kept.length) next.overrides = kept;
      else delete next.overrides;
    }
    tx.put('events', next);
    return next;
  }

  /** Publish a change committed by the caller's transaction (event.created / event.updated). */
  announce(event: StoredEvent | { uid: string; user_id: string }, kind: 'created' | 'updated' | 'removed'): void {
    this.d.bus.publish(event.user_id, `event.${kind}`, event);
  }

  private putEvent(tx: Tx, e: StoredEvent): StoredEvent {
    tx.put('events', e);
    return e;
  }

  private owned(tx: Tx, p: Principal, uid: string): StoredEvent {
    const e = tx.get('events', uid);
    if (!e) throw notFound(`No event ${uid}.`);
    assertOwner(p, e.user_id);
    assertWritable(e);
    return e;
  }

  private checkVersion(e: StoredEvent, expected: number | undefined): void {
    if (expected !== undefined && expected !== e.version)
      throw conflict(`Event ${e.uid} is at version ${e.version}, not ${expected}: it was changed meanwhile. Reload it and edit again.`, 'version_conflict', [
        { path: 'expected_version', message: `current version is ${e.version}`, current_version: e.version },
      ]);
  }

  private publish(s: Staged): void {
    this.announce(s.event, s.kind);
    if (s.trace) this.d.announceTrace?.(s.trace, 'created');
  }

  // ------------------------------------------------------------------ import / export

  /** Import an iCalendar text (calendar-import.ts): every event checked like a create, keyed by (user, UID). */
  import(p: Principal, text: string, name?: string): Promise<ImportReport> {
    return importCalendar(
      {
        store: this.d.store,
        clock: this.d.clock,
        zoneOf: this.d.zoneOf,
        reader: this.reader,
        exclusive: (userId, fn) => this.afterImportsOf(userId, fn),
        summarize: stageImportSummary,
        onUpdate: (tx, before, after, actor) => this.hooks.forEach((h) => h(tx, before, after, actor)),
        publish: (kind, event) => this.publish({ kind, event }),
        publishTrace: (trace) => this.d.announceTrace?.(trace, 'created'),
      },
      p,
      text,
      name,
    );
  }

  // ------------------------------------------------------------------ subscriptions (domain/sync calls these)

  /** Read and check a feed's text exactly as an import reads a file (worker thread when large). */
  readFeed(userId: string, text: string): Promise<PreparedImport> {
    return this.reader.read(text, this.d.zoneOf(userId));
  }

  /** Make the user's copy of a feed what `prepared` holds (feed-apply.ts). */
  applyFeed(feed: FeedRef, prepared: PreparedImport): Promise<FeedApplied> {
    return applyFeed(this.feedPorts(), feed, prepared);
  }

  /** Remove every event of a feed; returns how many. */
  removeFeed(feed: { id: string; userId: string }): Promise<number> {
    return removeFeed(this.feedPorts(), feed);
  }

  /** How many events of a feed the user's calendar holds. */
  feedEventCount(feed: { id: string; userId: string }): number {
    return feedEvents(this.d.store, feed).size;
  }

  /** How another area stages event changes with their traces and hooks (feeds, CalDAV sync), and publishes them after commit. */
  feedPorts(): FeedPorts {
    return {
      store: this.d.store,
      clock: this.d.clock,
      exclusive: (userId, fn) => this.afterImportsOf(userId, fn),
      record: (tx, kind, event, actor, now, before) => stageChangeTrace(tx, kind, event, actor, now, before),
      onChange: (tx, before, after, actor) => this.hooks.forEach((h) => h(tx, before, after, actor)),
      publish: (kind, event, trace) => this.publish({ kind, event, trace }),
    };
  }

  /** Run `fn` once the user's earlier imports have stored their events. */
  private afterImportsOf<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.importing.get(userId) ?? Promise.resolve()).then(fn);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.importing.set(userId, tail);
    void tail.then(() => {
      if (this.importing.get(userId) === tail) this.importing.delete(userId);
    });
    return run;
  }

  /** When what `exportIcs` gives this user last changed (whole seconds), for `Last-Modified`. */
  exportModifiedAt(userId: string): Date {
    return this.stamps.serve(userId);
  }

  /** The user's events as iCalendar, all or those of a range and tag (export-ics.ts). */
  exportIcs(userId: string, q: { start?: string; end?: string; tag?: string }, name?: string): Promise<IcsAnswer> {
    return exportIcs(this.d.store, userId, this.d.zoneOf(userId), this.d.clock.now(), q, name);
  }
}
