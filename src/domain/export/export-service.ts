import { type CheckpointInfo, DEFAULT_EXPORT_LIMIT, type ExportFormat, type ExportQuery, type GroupBy } from '../../contracts/export.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { notFound } from '../../errors.js';
import { topK } from '../../platform/top-k.js';
import type { Store } from '../../store/store.js';
import { eventReads } from '../calendar/event-reads.js';
import type { Clock } from '../clock.js';
import { compareTraces } from '../memory/pull.js';
import { loadTokenizer } from '../memory/summarize.js';
import { jsonBytes, pageFit } from '../page-bytes.js';
import { type Principal, targetUser } from '../principal.js';
import type { UsersService } from '../users/users-service.js';
import { ExportCache } from './cache.js';
import { listCheckpoints, resolveCheckpoint, saveCheckpoint } from './checkpoints.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { diffResult, diffStates } from './diff.js';
import { groupItems, groupKeyOf } from './group.js';
import { checkpointState, currentState, type MemoryState, stateAt } from './history.js';
import { compareReached, walkLinks } from './linked.js';
import { type RankedKey, rankedKey, rankPage } from './rank.js';
import { projectTrace, stripSensitive } from './redact.js';
import { matchesFilters, selectTraces, type TraceFilters } from './select.js';
import { summarize } from './summary.js';

type Tokenizer = Awaited<ReturnType<typeof loadTokenizer>>;

/** An export request with defaults filled in, times in UTC and checkpoints resolved: the cache key. */
interface Plan {
  format: ExportFormat;
  filters: TraceFilters;
  group_by?: GroupBy;
  include_feedback: boolean;
  include_expired: boolean;
  max_token_count?: number;
  since?: string;
  until?: string;
  from_checkpoint?: string;
  to_checkpoint?: string;
  limit: number;
  cursor?: string;
}

/** One built export before the last filter: the body, what it selected, and how long it stays true. */
interface Built {
  body: Record<string, unknown>;
  /** uid → version of every trace the export selected (all pages): what a checkpoint records. */
  selection: () => Record<string, number>;
  expiresAt?: number;
}

const utc = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso).toISOString());

/**
 * Context export (GET /context/export): summary, full, linked and diff views of one user's memory,
 * paginated, optionally grouped, optionally saved as a checkpoint, cached per (user, parameters).
 * authored_by and chat_url are removed by one filter applied to the finished response.
 */
export class ExportService {
  readonly cache: ExportCache;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly users: UsersService,
    config: { cacheTtlMs: number },
  ) {
    this.cache = new ExportCache(config.cacheTtlMs, clock);
    this.cache.follow(store);
  }

  async export(p: Principal, q: ExportQuery): Promise<{ body: Record<string, unknown>; cache: 'HIT' | 'MISS' }> {
    const userId = targetUser(p, q.user_id);
    const user = this.users.get(userId);
    if (!user) throw notFound(`No user ${userId}.`);
    const plan = this.plan(userId, q);
    const key = JSON.stringify(plan);
    // A checkpoint records memory as it is now, so such an export is never answered from the cache.
    if (q.checkpoint === undefined) {
      const hit = this.cache.get(userId, key);
      if (hit) return { body: hit as Record<string, unknown>, cache: 'HIT' };
    }
    const tk = plan.format === 'summary' ? await loadTokenizer() : undefined;
    // From here to the cache write nothing awaits, so no write can land between reading memory
    // and caching what was read (the cache's invalidation runs on the same thread).
    const now = this.clock.now();
    const built = this.build(userId, user.timezone, plan, now, tk);
    if (q.checkpoint === undefined) {
      const body = stripSensitive(built.body);
      this.cache.set(userId, key, body, built.expiresAt);
      return { body, cache: 'MISS' };
    }
    const filters = Object.fromEntries(
      Object.entries({ ...plan.filters, include_expired: plan.include_expired || undefined }).filter(([, v]) => v !== undefined),
    );
    const checkpoint: CheckpointInfo = await saveCheckpoint(
      this.store,
      { user_id: userId, name: q.checkpoint, created_at: now.toISOString(), export_format: plan.format, filters, traces: built.selection() },
      now,
    );
    return { body: stripSensitive({ ...built.body, checkpoint }), cache: 'MISS' };
  }

  /** GET /context/checkpoints */
  checkpoints(p: Principal, requestedUserId?: string): { checkpoints: CheckpointInfo[] } {
    return { checkpoints: listCheckpoints(this.store, targetUser(p, requestedUserId)) };
  }

  private plan(userId: string, q: ExportQuery): Plan {
    const filters: TraceFilters = {
      task_id: q.task_id,
      tempo_tag: q.tempo_tag,
      type: q.type,
      start: utc(q.start_time),
      end: utc(q.end_time),
    };
    return {
      format: q.export_format,
      filters,
      group_by: q.group_by,
      include_feedback: q.include_feedback ?? false,
      include_expired: q.include_expired ?? false,
      max_token_count: q.max_token_count,
      since: utc(q.since),
      until: utc(q.until),
      // Resolved to ids so a name and its id share a cache entry, and an unknown one is a 404 up front.
      from_checkpoint: q.from_checkpoint === undefined ? undefined : resolveCheckpoint(this.store, userId, q.from_checkpoint).id,
      to_checkpoint: q.to_checkpoint === undefined ? undefined : resolveCheckpoint(this.store, userId, q.to_checkpoint).id,
      limit: q.limit ?? DEFAULT_EXPORT_LIMIT,
      cursor: q.cursor,
    };
  }

  private build(userId: string, zone: string, plan: Plan, now: Date, tk: Tokenizer | undefined): Built {
    const head = { user_id: userId, export_format: plan.format, generated_at: now.toISOString() };
    const grouped = <T>(items: T[], docOf: (item: T) => Readonly<Record<string, unknown>>, wrap: (items: T[]) => unknown) =>
      plan.group_by === undefined
        ? { results: wrap(items) }
        : {
            groups: groupItems(items, (it) => groupKeyOf(docOf(it), plan.group_by!, zone), plan.group_by).map((g) => ({ key: g.key, results: wrap(g.items) })),
          };
    const versions = (traces: Iterable<{ uid: string; version: number }>) => () => Object.fromEntries([...traces].map((t) => [t.uid, t.version]));
    // A page also ends at PAGE_BYTES of JSON; a grouped item may open a group of its own.
    const sizedPage = <T>(items: T[], docOf: (item: T) => Readonly<Record<string, unknown>>, bytesOf: (item: T) => number) =>
      items.slice(
        0,
        pageFit(items, (it) => bytesOf(it) + (plan.group_by === undefined ? 0 : jsonBytes(groupKeyOf(docOf(it), plan.group_by, zone)) + 32)),
      );

    switch (plan.format) {
      case 'summary': {
        const { traces: selected, expiresAt } = selectTraces(this.store, userId, plan.filters, { includeExpired: plan.include_expired, now });
        const after = plan.cursor ? (decodeCursor('summary', plan.cursor, ['number', 'string', 'string']) as RankedKey) : undefined;
        // One more than a page, to know whether another page follows.
        const ranked = rankPage(selected, plan.limit + 1, after);
        const page = ranked.slice(0, plan.limit);
        const s = summarize(
          tk!,
          page.map((r) => r.trace),
          { maxTokens: plan.max_token_count, includeFeedback: plan.include_feedback },
        );
        const last = page[s.items.length - 1];
        const more = last !== undefined && s.items.length < ranked.length;
        const byUid = new Map(page.map((r) => [r.trace.uid, r.trace]));
        return {
          body: {
            ...head,
            ...grouped(
              s.items,
              (it) => byUid.get(it.uid)!,
              (items) => items,
            ),
            next_cursor: more ? encodeCursor('summary', rankedKey(last)) : null,
            token_count: s.token_count,
            ...(s.truncated ? { truncated: true } : {}),
          },
          selection: versions(selected),
          expiresAt,
        };
      }
      case 'full': {
        const { traces: all, expiresAt } = selectTraces(this.store, userId, plan.filters, { includeExpired: plan.include_expired, now });
        let selected = all;
        if (plan.cursor) {
          const [timestamp, uid] = decodeCursor('full', plan.cursor, ['string', 'string']) as [string, string];
          selected = selected.filter((t) => compareTraces(t, { timestamp, uid } as StoredTrace) > 0);
        }
        const page = sizedPage(
          topK(selected, plan.limit, compareTraces),
          (t) => t,
          (t) => jsonBytes(projectTrace(t, plan.include_feedback)),
        );
        const last = page.at(-1);
        return {
          body: {
            ...head,
            ...grouped(
              page,
              (t) => t,
              (items) => items.map((t) => projectTrace(t, plan.include_feedback)),
            ),
            next_cursor: last && selected.length > page.length ? encodeCursor('full', [last.timestamp, last.uid]) : null,
          },
          selection: versions(all),
          expiresAt,
        };
      }
      case 'linked': {
        const { traces: seeds, expiresAt } = selectTraces(this.store, userId, plan.filters, { includeExpired: plan.include_expired, now });
        const reached = walkLinks(this.store, userId, seeds);
        let rest = reached;
        if (plan.cursor) {
          const [depth, timestamp, uid] = decodeCursor('linked', plan.cursor, ['number', 'string', 'string']) as [number, string, string];
          const pos = { depth, trace: { timestamp, uid } as StoredTrace };
          rest = reached.filter((r) => compareReached(r, pos) > 0);
        }
        // A trace's linked event is counted with it: the page's events are part of its answer.
        const page = sizedPage(
          topK(rest, plan.limit, compareReached),
          (r) => r.trace,
          (r) => jsonBytes(projectTrace(r.trace, plan.include_feedback)) + 12 + this.linkedEventBytes(userId, r.trace),
        );
        const last = page.at(-1);
        const events = this.linkedEvents(
          userId,
          page.map((r) => r.trace),
        );
        return {
          body: {
            ...head,
            ...grouped(
              page,
              (r) => r.trace,
              (items) => items.map((r) => ({ ...projectTrace(r.trace, plan.include_feedback), depth: r.depth })),
            ),
            ...(events.length ? { events } : {}),
            next_cursor: last && rest.length > page.length ? encodeCursor('linked', [last.depth, last.trace.timestamp, last.trace.uid]) : null,
          },
          selection: versions(reached.map((r) => r.trace)),
          expiresAt,
        };
      }
      case 'diff': {
        const from = this.filtered(this.stateOf(userId, plan.since, plan.from_checkpoint), plan.filters);
        const to = this.filtered(this.stateOf(userId, plan.until ?? now.toISOString(), plan.to_checkpoint, plan.until === undefined), plan.filters);
        let entries = diffStates(from, to, plan.include_feedback);
        if (plan.cursor) {
          const [uid] = decodeCursor('diff', plan.cursor, ['string']) as [string];
          entries = entries.filter((e) => e.uid > uid);
        }
        const page = sizedPage(
          entries.slice(0, plan.limit),
          (e) => e.state.doc,
          (e) => jsonBytes(e.value),
        );
        const last = page.at(-1);
        return {
          body: {
            ...head,
            ...grouped(page, (e) => e.state.doc, diffResult),
            next_cursor: last && entries.length > page.length ? encodeCursor('diff', [last.uid]) : null,
          },
          selection: versions(to.values()),
        };
      }
    }
  }

  /** A diff side: a checkpoint, or the memory as it was at an instant (or is now). */
  private stateOf(userId: string, instant: string | undefined, checkpointId: string | undefined, isNow = false): MemoryState {
    if (checkpointId !== undefined) return checkpointState(this.store, this.store.get('checkpoints', checkpointId)!.traces);
    if (isNow) return currentState(this.store, userId);
    return stateAt(this.store, userId, instant!);
  }

  private filtered(state: MemoryState, f: TraceFilters): MemoryState {
    const out: MemoryState = new Map();
    for (const [uid, s] of state) if (matchesFilters(s.doc, f)) out.set(uid, s);
    return out;
  }

  /** The JSON size of the calendar event a trace points at (0 when none of the user's). */
  private linkedEventBytes(userId: string, t: StoredTrace): number {
    const ev = t.linked_event_uid === undefined ? undefined : eventReads(this.store).get(t.linked_event_uid);
    return ev && ev.user_id === userId ? jsonBytes(ev) + 1 : 0;
  }

  /** Calendar events the page's traces point at through linked_event_uid (the user's own only). */
  private linkedEvents(userId: string, traces: readonly StoredTrace[]): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    for (const t of traces) {
      const uid = t.linked_event_uid;
      if (uid === undefined || seen.has(uid)) continue;
      seen.add(uid);
      const ev = eventReads(this.store).get(uid);
      if (ev && ev.user_id === userId) out.push(ev);
    }
    return out;
  }
}
