import {
  CALENDAR_LIMITS,
  type CreateEventInput,
  type EventOverride,
  type EventSource,
  type EventUpdates,
  type ImportReport,
} from '../../contracts/calendar.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { AppError, conflict, notFound, validationFailed } from '../../errors.js';
import { icsPieces } from '../../ical/export.js';
import { nextTurn } from '../../platform/next-turn.js';
import { SLICE_MS, TurnSlice } from '../../platform/turn-slice.js';
import type { Store, Tx } from '../../store/store.js';
import { addDays, parseLocalDate } from '../../time/local-date.js';
import { isTempoTag } from '../../time/tags.js';
import { instantOf, wallAt } from '../../time/zone-cache.js';
import { startOfLocalDay } from '../../time/zoned-time.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import { newId } from '../ids.js';
import { stageTrace } from '../memory/stage-trace.js';
import { actorOf, assertOwner, type Principal } from '../principal.js';
import { tempoProfileParts } from '../tempo/tempo-service.js';
import { importCalendar } from './calendar-import.js';
import { type Busy, busyIn, type EventItem, iso, isSeries, ms, occurrenceMaker, occurrencesIn, type StoredEvent, seriesRule, span } from './event.js';
import { CORE_KEYS } from './event-fields.js';
import { ExportStamps } from './export-stamps.js';
import { applyFeed, type FeedApplied, type FeedPorts, type FeedRef, feedEvents, removeFeed } from './feed-apply.js';
import { freeTime } from './free-time.js';
import type { PreparedImport } from './import-check.js';
import { ImportReader } from './import-reader.js';
import { stageImportSummary } from './import-summary.js';
import { dropKeptSource, keptSource, writeBackIcs } from './kept-source.js';
import { type EventCore, type EventDraft, normalizeEvent } from './normalize.js';
import { assertWritable } from './read-only.js';
import { ExpansionBudget, ruleStarts } from './recurrence.js';

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

const DAY = 86_400_000;
/** How far ahead the conflicts of an endless new series are looked for. */
const CONFLICT_HORIZON = 366 * DAY;
/** Longest range a listing may expand. */
const MAX_RANGE = CALENDAR_LIMITS.max_listing_days * DAY;
/** Fields an occurrence override may change. */
const OCCURRENCE_FIELDS = ['title', 'scheduled_for', 'duration_minutes', 'description', 'location', 'status'] as const;

type Kind = 'created' | 'updated' | 'removed';

interface Staged {
  kind: Kind;
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

  /**
   * Events and occurrences of a user overlapping [start, end), sorted by start. Bounded: the range
   * is at most `max_listing_days`, the answer at most `max_listing_occurrences` items, and the
   * expansion work at most `max_expansion_steps` (each a 422 naming the limit). The user's events
   * are gone through a slice per turn of the event loop (turns.ts).
   */
  async list(userId: string, q: { start?: string; end?: string; tag?: string; expand?: boolean }): Promise<EventItem[]> {
    const tz = this.d.zoneOf(userId);
    const budget = new ExpansionBudget();
    const slice = new TurnSlice(SLICE_MS);
    if (q.expand === false) return this.series(userId, q, tz, budget, slice);
    const from = q.start ? this.instant(q.start, tz) : this.d.clock.now().getTime();
    const to = q.end ? this.instant(q.end, tz) : from + 30 * DAY;
    if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
    const maxDays = CALENDAR_LIMITS.max_listing_days;
    if (to - from > MAX_RANGE)
      throw validationFailed(`The range is longer than ${maxDays} days; list it in parts.`, [
        { path: 'end', message: `at most ${maxDays} days after start`, limit: 'max_listing_days', max: maxDays },
      ]);
    const cap = CALENDAR_LIMITS.max_listing_occurrences;
    const maxBytes = CALENDAR_LIMITS.max_listing_bytes;
    const items: EventItem[] = [];
    let bytes = 0;
    for (const e of this.d.store.byIndex('events', 'user_id', userId)) {
      if (slice.due) await slice.yield();
      if (q.tag !== undefined && e.tag !== q.tag) continue;
      // Every occurrence repeats its series' texts (a description may be 100 kB).
      const size = 600 + e.title.length + (e.description?.length ?? 0) + (e.location?.length ?? 0) + (e.rrule?.length ?? 0);
      const made = this.mayMeet(e, from, to, budget) ? occurrenceMaker(e, from, to, budget) : { length: 0, at: () => e };
      for (let i = 0; i < made.length; i++) {
        if ((i & 255) === 255 && slice.due) await slice.yield();
        const item = made.at(i);
        if (items.length >= cap)
          throw validationFailed(`The range holds more than ${cap} events and occurrences; ask for a shorter range.`, [
            { path: 'end', message: `more than ${cap} items`, limit: 'max_listing_occurrences', max: cap },
          ]);
        bytes += isSeries(e) ? size : size + (e.rdates?.length ?? 0) * 30;
        if (bytes > maxBytes)
          throw validationFailed(`The events in this range make more than ${maxBytes} bytes; ask for a shorter range.`, [
            { path: 'end', message: `more than ${maxBytes} bytes`, limit: 'max_listing_bytes', max: maxBytes },
          ]);
        items.push(item);
      }
    }
    await slice.maybeYield();
    return items.sort(byStartThenUid);
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

  /** Events as stored (a series once), those that can occur in the range when one is given. */
  private async series(
    userId: string,
    q: { start?: string; end?: string; tag?: string },
    tz: string,
    budget: ExpansionBudget,
    slice: TurnSlice,
  ): Promise<StoredEvent[]> {
    const from = q.start ? this.instant(q.start, tz) : -Infinity;
    const to = q.end ? this.instant(q.end, tz) : Infinity;
    if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
    const out: StoredEvent[] = [];
    for (const e of this.d.store.byIndex('events', 'user_id', userId)) {
      if (slice.due) await slice.yield();
      if (q.tag !== undefined && e.tag !== q.tag) continue;
      const s = span(e, budget);
      if (s.first < to && (s.last === undefined || s.last > from || (s.last === s.first && s.first >= from))) out.push(e);
    }
    await slice.maybeYield();
    return out.sort(byStartThenUid);
  }

  /**
   * What keeps a user busy in [start, end): expanded occurrences, cancelled ones left out. A pure
   * read for free-slot search and conflict display. With a budget, the expansion stops (422) when
   * it is spent; with a limit, at most that many intervals are gathered (the earliest events'
   * first, not the earliest intervals: callers that cap must treat the answer as partial).
   */
  busy(
    userId: string,
    start: Date | number | string,
    end: Date | number | string,
    source: Pick<Tx, 'byIndex'> = this.d.store,
    budget = new ExpansionBudget(),
    limit = Infinity,
  ): Busy[] {
    const from = new Date(start).getTime();
    const to = new Date(end).getTime();
    const out: Busy[] = [];
    outer: for (const e of source.byIndex('events', 'user_id', userId)) {
      if (!this.mayMeet(e, from, to, budget)) continue;
      for (const b of busyIn(e, from, to, budget)) {
        if (out.length >= limit) break outer;
        out.push(b);
      }
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /** Cheap test first: most events are nowhere near the range. */
  private mayMeet(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): boolean {
    if (!isSeries(e)) return true;
    const s = span(e, budget);
    return !(s.first >= to || (s.last !== undefined && s.last <= from));
  }

  private instant(input: string, tz: string): number {
    if (/^\d{4}-\d{2}-\d{2}$/.test(input))
      return instantOf({ year: +input.slice(0, 4), month: +input.slice(5, 7), day: +input.slice(8, 10), hour: 0, minute: 0, second: 0 }, tz);
    return Date.parse(input);
  }

  /**
   * Uids of the user's events overlapping any occurrence of `e` (within a year for an endless
   * series). Sort and sweep, never occurrence against occurrence: both sides sorted by start, a
   * running maximum of the new event's ends, and for each other interval one binary search.
   * At most `max_conflict_intervals` intervals and one expansion budget are spent; past either,
   * the answer is what was found so far and `truncated` says so. The user's other events are
   * gone through a slice per turn of the event loop.
   */
  async conflictsOf(e: StoredEvent): Promise<{ uids: string[]; truncated: boolean }> {
    if (e.status === 'cancelled') return { uids: [], truncated: false };
    const cap = CALENDAR_LIMITS.max_conflict_intervals;
    const budget = new ExpansionBudget();
    const slice = new TurnSlice(SLICE_MS);
    let truncated = false;
    let mine: Busy[] = [];
    const others: Busy[] = [];
    try {
      const s = span(e, budget);
      const until = Math.min(s.last ?? Infinity, s.first + CONFLICT_HORIZON);
      mine = busyIn(e, s.first, until, budget);
      if (mine.length > cap) {
        truncated = true;
        mine = mine.slice(0, cap);
      }
      if (!mine.length) return { uids: [], truncated };
      let to = -Infinity;
      for (const b of mine) if (b.end > to) to = b.end;
      const from = mine[0]!.start;
      const room = cap - mine.length;
      await slice.maybeYield();
      outer: for (const other of this.d.store.byIndex('events', 'user_id', e.user_id)) {
        if (slice.due) await slice.yield();
        if (other.uid === e.uid || !this.mayMeet(other, from, to, budget)) continue;
        for (const b of busyIn(other, from, to, budget)) {
          if (others.length >= room) {
            truncated = true;
            break outer;
          }
          others.push(b);
        }
      }
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 422) throw err;
      truncated = true;
    }
    // maxEnd[k]: the latest end among mine[0..k-1] (the new event's intervals starting first).
    const maxEnd: number[] = [-Infinity];
    for (const b of mine) maxEnd.push(Math.max(maxEnd[maxEnd.length - 1]!, b.end));
    const found = new Set<string>();
    for (const o of others) {
      if (found.has(o.uid)) continue;
      // Intervals of mine starting before o ends; one of them reaching past o's start overlaps it.
      let lo = 0;
      let hi = mine.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (mine[mid]!.start < o.end) lo = mid + 1;
        else hi = mid;
      }
      if (maxEnd[lo]! > o.start) found.add(o.uid);
    }
    return { uids: [...found].sort(), truncated };
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
      const trace = this.stageRecord(tx, 'created', event, actor, now);
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
        ? this.stageOccurrenceEdit(tx, before, req.recurrence_id, req.updates, now)
        : this.stageEdit(tx, before.user_id, req.uid, req.updates, actor, now);
      const trace = this.stageRecord(tx, 'updated', event, actor, now, before, { occurrence: req.recurrence_id, undoOf });
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
        const rid = this.occurrenceId(before, recurrenceId);
        const event: StoredEvent = {
          ...before,
          exdates: [...new Set([...(before.exdates ?? []), iso(rid)])].sort(),
          ...this.withoutOverride(before, rid),
          version: before.version + 1,
          updated_at: now.toISOString(),
        };
        if (!event.overrides?.length) delete event.overrides;
        tx.put('events', event);
        const trace = this.stageRecord(tx, 'updated', event, actor, now, before, { occurrence: iso(rid), occurrenceRemoved: true });
        for (const h of this.hooks) h(tx, before, event, actor);
        return { kind: 'updated', event, trace };
      }
      tx.delete('events', uid);
      const trace = this.stageRecord(tx, 'removed', before, actor, now, undefined, { undoOf, previous: before });
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
      const trace = this.stageRecord(tx, kind, event, actor, now, current, { undoOf });
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
      const kept = before.overrides.filter((o) => this.hasOccurrence(next, ms(o.recurrence_id)));
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

  private stageOccurrenceEdit(tx: Tx, before: StoredEvent, recurrenceId: string, updates: EventUpdates, now: Date): StoredEvent {
    const rid = this.occurrenceId(before, recurrenceId);
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
    const next: StoredEvent = {
      ...before,
      overrides: [...others, o].sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id)),
      version: before.version + 1,
      updated_at: now.toISOString(),
    };
    tx.put('events', next);
    return next;
  }

  /** The instant of an occurrence the series really has (404 otherwise). */
  private occurrenceId(e: StoredEvent, recurrenceId: string): number {
    const rid = Date.parse(recurrenceId);
    if (!isSeries(e))
      throw validationFailed(`Event ${e.uid} does not recur; edit or remove it without recurrence_id.`, [
        { path: 'recurrence_id', message: 'the event does not recur' },
      ]);
    if (!this.hasOccurrence(e, rid)) throw notFound(`Event ${e.uid} has no occurrence starting ${iso(rid)}.`);
    return rid;
  }

  private hasOccurrence(e: StoredEvent, rid: number): boolean {
    if ((e.exdates ?? []).some((x) => ms(x) === rid)) return false;
    if (ms(e.scheduled_for) === rid && !e.rrule) return true;
    if ((e.rdates ?? []).some((x) => ms(x) === rid)) return true;
    if ((e.overrides ?? []).some((o) => ms(o.recurrence_id) === rid)) return true;
    const rule = seriesRule(e);
    return Boolean(rule && ruleStarts(rule, rid, rid + 1).length);
  }

  private withoutOverride(e: StoredEvent, rid: number): Pick<StoredEvent, 'overrides'> {
    return { overrides: (e.overrides ?? []).filter((o) => ms(o.recurrence_id) !== rid) };
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

  /** The `calendar_event` trace of a change, linked to the event. */
  private stageRecord(
    tx: Tx,
    kind: Kind,
    e: StoredEvent,
    actor: string,
    now: Date,
    before?: StoredEvent,
    o: { occurrence?: string; occurrenceRemoved?: boolean; undoOf?: string; previous?: StoredEvent } = {},
  ): StoredTrace {
    const { occurrence, occurrenceRemoved = false, undoOf, previous } = o;
    const when = describeWhen(e);
    const what =
      kind === 'created'
        ? `Added "${e.title}" to the calendar: ${when}`
        : kind === 'removed'
          ? `Removed "${e.title}" (${when}) from the calendar`
          : occurrence
            ? `${occurrenceRemoved ? 'Cancelled' : 'Changed'} the ${describeInstant(ms(occurrence), e)} occurrence of "${e.title}"`
            : `Changed "${e.title}": ${when}`;
    const changes = before && !occurrence ? changedFields(before, e) : undefined;
    return stageTrace(
      tx,
      {
        user_id: e.user_id,
        type: 'calendar_event',
        task_id: e.task_id ?? 'calendar',
        content: `${what}.`,
        actor,
        ...(e.tag && isTempoTag(e.tag) ? { tempo_tag: e.tag } : {}),
        linked_event_uid: e.uid,
        fields: {
          action: kind === 'updated' && occurrenceRemoved ? 'occurrence_removed' : kind,
          event_uid: e.uid,
          title: e.title,
          scheduled_for: e.scheduled_for,
          duration_minutes: e.duration_minutes,
          ...(e.rrule ? { rrule: e.rrule } : {}),
          ...(occurrence ? { recurrence_id: iso(ms(occurrence)) } : {}),
          ...(changes ? { changes } : {}),
          ...(undoOf ? { undo_of: undoOf } : {}),
          // A removal keeps the whole event, so `kairos undo` puts it back as it was, uid and all.
          ...(previous ? { previous } : {}),
          version: e.version,
        },
      },
      now,
    );
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
      record: (tx, kind, event, actor, now, before) => this.stageRecord(tx, kind, event, actor, now, before),
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

  /**
   * The user's events as iCalendar: all of them, or those with an occurrence in [start, end) (and
   * the tag). Built a slice per turn: a calendar of tens of thousands of events takes seconds.
   */
  async exportIcs(userId: string, q: { start?: string; end?: string; tag?: string }, name?: string): Promise<Buffer> {
    const tz = this.d.zoneOf(userId);
    const from = q.start ? this.instant(q.start, tz) : -Infinity;
    const to = q.end ? this.instant(q.end, tz) : Infinity;
    if (!(to > from)) throw validationFailed('end must be after start.', [{ path: 'end', message: 'must be after start' }]);
    const bounded = Number.isFinite(from) && Number.isFinite(to);
    const slice = new TurnSlice();
    const events: StoredEvent[] = [];
    for (const e of this.d.store.byIndex('events', 'user_id', userId)) {
      await slice.maybeYield();
      if (q.tag !== undefined && e.tag !== q.tag) continue;
      if (from !== -Infinity || to !== Infinity) {
        const s = span(e);
        if (s.first >= to || (s.last !== undefined && s.last <= from)) continue;
        // A series spanning the range may still have no occurrence in it.
        if (isSeries(e) && bounded && occurrencesIn(e, from, to).length === 0) continue;
      }
      events.push(e);
    }
    events.sort(byStartThenUid);
    // Bytes, a piece at a time: joining tens of thousands of strings into one (and Koa's encoding
    // of it) held the loop for 100–200 ms; Buffer.concat is one copy.
    const pieces: Buffer[] = [];
    const now = this.d.clock.now();
    // An event synced from a CalDAV server is written as the server's text with the user's edits in it,
    // stamped with the time of the edit: the same calendar exports the same bytes.
    const keptOf = (e: StoredEvent) => {
      const k = keptSource(this.d.store, e.uid);
      return k && writeBackIcs(e, e.ical_uid ?? e.uid, new Date(e.updated_at), k);
    };
    for (const piece of icsPieces(events, { now, spanOf: span, keptOf, ...(name ? { name } : {}) })) {
      if (piece) pieces.push(Buffer.from(piece));
      await slice.maybeYield();
    }
    return Buffer.concat(pieces);
  }
}

// ------------------------------------------------------------------ helpers

/**
 * Listing order. Starts are ISO strings of one format (UTC, milliseconds), so comparing code
 * points is comparing times, and much cheaper than localeCompare over 10,000 items.
 */
const byStartThenUid = (a: { scheduled_for: string; uid: string }, b: { scheduled_for: string; uid: string }) =>
  a.scheduled_for < b.scheduled_for ? -1 : a.scheduled_for > b.scheduled_for ? 1 : a.uid.localeCompare(b.uid);

function coreOf(e: StoredEvent): EventDraft {
  const out: Record<string, unknown> = {};
  for (const k of CORE_KEYS) if (e[k] !== undefined) out[k] = e[k];
  return out as unknown as EventDraft;
}

/** A stored event without its owner-set fields (so a normalized core can replace them wholesale). */
function stripCore(e: StoredEvent): StoredEvent {
  const copy: Record<string, unknown> = { ...e };
  for (const k of CORE_KEYS) delete copy[k];
  return copy as StoredEvent;
}

function changedFields(before: StoredEvent, after: StoredEvent): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of [...CORE_KEYS, 'overrides'] as const) {
    const a = before[k] ?? null;
    const b = after[k] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = { from: a, to: b };
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

function describeInstant(at: number, e: Pick<StoredEvent, 'timezone' | 'all_day'>): string {
  const w = wallAt(at, e.timezone);
  const date = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  return e.all_day ? date : `${date} ${pad(w.hour)}:${pad(w.minute)} ${e.timezone}`;
}

function describeWhen(e: StoredEvent): string {
  const start = describeInstant(ms(e.scheduled_for), e);
  const length = e.all_day ? `${Math.round(e.duration_minutes / 1440)} day(s)` : `${e.duration_minutes} min`;
  return `${start}, ${length}${e.rrule ? `, repeating ${e.rrule}` : ''}`;
}
