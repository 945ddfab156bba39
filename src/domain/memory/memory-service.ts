import {
  type HistoryQuery,
  type HistoryResponse,
  type PullQuery,
  type SearchRequest,
  type SearchResponse,
  type SearchResult,
  type StoredTrace,
  searchScopeKey,
  type TraceInput,
  type TraceUpdates,
} from '../../contracts/memory.js';
import { notFound } from '../../errors.js';
import type { Store, Tx } from '../../store/store.js';
import { normalizeTag } from '../../time/tags.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../live-bus.js';
import { jsonBytes, pageFit } from '../page-bytes.js';
import { actorOf, assertOwner, type Principal, targetUser } from '../principal.js';
import { type DumpSelector, dumpTraces, type TraceDump } from './dump.js';
import { fuseHybrid, semanticRanking } from './fuse.js';
import { historyPage } from './history-page.js';
import { hitText, markPrefixes } from './hit-text.js';
import { afterCursor, compareTraces, decodePullCursor, inTimeRange, isExpired, pullCursor, timeRange } from './pull.js';
import type { KeywordHit, KeywordSearchPort, SemanticSearchPort } from './search-port.js';
import { stageNewTrace, stageTraceEdit } from './stage-trace.js';
import { fitTokens, loadTokenizer, MIN_USEFUL_TOKENS, summarizeTrace } from './summarize.js';

/** Runs inside the edit's transaction, after the edit is staged (e.g. a plan moving to `edited`). */
export type EditHook = (tx: Tx, before: StoredTrace, after: StoredTrace, actor: string) => void;

export const DEFAULT_PULL_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 20;
/**
 * Candidates taken from each side of a search before fusing, the same for every `limit`: a pool
 * that grew with the limit let a larger limit reorder the top (a trace found by meaning gained its
 * keyword part only once the keyword pool reached it).
 */
const SEARCH_POOL = 500;

/** Keyword scores relative to the best hit, so the best scores 1. */
function normalizeToTop(hits: KeywordHit[]): { uid: string; score: number }[] {
  const top = hits[0]?.score || 1;
  return hits.map((h) => ({ uid: h.uid, score: h.score / top }));
}

/**
 * Memory traces: push, pull, versioned edits with history, search and summaries. Other areas
 * record their own traces with stageTrace/stageTraceEdit inside their transactions and call
 * `announce` once those committed.
 */
export class MemoryService {
  private readonly editHooks: EditHook[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly keyword: KeywordSearchPort,
    private readonly semantic?: SemanticSearchPort,
  ) {}

  /** Publish the live event of a trace committed by any area. */
  announce(trace: StoredTrace, kind: 'created' | 'updated'): void {
    this.bus.publish(trace.user_id, kind === 'created' ? 'trace.created' : 'trace.updated', trace);
  }

  /** Let another area react to an edit atomically (the agent area marks executed plans edited). */
  onEdit(hook: EditHook): void {
    this.editHooks.push(hook);
  }

  /** One trace of the caller (404 unknown, 403 another user's). */
  get(p: Principal, uid: string): StoredTrace {
    const t = this.store.get('traces', uid);
    if (!t) throw notFound(`No trace ${uid}.`);
    assertOwner(p, t.user_id);
    return t;
  }

  async push(p: Principal, traces: TraceInput[]): Promise<{ saved: { uid: string; timestamp: string }[] }> {
    const now = this.clock.now();
    const userId = p.userId;
    const staged = await this.store.transact((tx) =>
      traces.map((input, i) =>
        stageNewTrace(tx, { ...input, user_id: userId, authored_by: p.agentId ?? input.authored_by ?? p.authUserId }, now, `traces.${i}.`),
      ),
    );
    for (const t of staged) this.announce(t, 'created');
    return { saved: staged.map((t) => ({ uid: t.uid, timestamp: t.timestamp })) };
  }

  pull(p: Principal, q: PullQuery): { traces: StoredTrace[]; next_cursor: string | null } {
    const userId = targetUser(p, q.user_id);
    const now = this.clock.now();
    const range = timeRange(q);
    const after = q.cursor ? decodePullCursor(q.cursor) : undefined;
    const limit = q.limit ?? DEFAULT_PULL_LIMIT;
    // The task index is usually far smaller than the user's whole memory.
    const base = q.task_id !== undefined ? this.store.byIndex('traces', 'task_id', q.task_id) : this.store.byIndex('traces', 'user_id', userId);
    const tag = q.tempo_tag;
    const matching = base.filter(
      (t) =>
        t.user_id === userId &&
        (q.type === undefined || t.type === q.type) &&
        (tag === undefined || t.tempo_tag === tag) &&
        (q.space === undefined || t.space === q.space) &&
        inTimeRange(t, range) &&
        (q.include_expired || !isExpired(t, now)) &&
        (!after || afterCursor(t, after)),
    );
    matching.sort(compareTraces);
    const first = matching.slice(0, limit);
    const page = first.slice(0, pageFit(first, jsonBytes));
    const more = matching.length > page.length;
    return { traces: page, next_cursor: more ? pullCursor(page[page.length - 1]!) : null };
  }

  async edit(p: Principal, req: { uid: string; updates: TraceUpdates; expected_version?: number }): Promise<StoredTrace> {
    const actor = actorOf(p);
    const now = this.clock.now();
    const next = await this.store.transact((tx) => {
      const before = tx.get('traces', req.uid);
      const after = stageTraceEdit(tx, req.uid, req.updates, actor, now, {
        expectedVersion: req.expected_version,
        authorize: (owner) => assertOwner(p, owner),
      });
      for (const hook of this.editHooks) hook(tx, before!, after, actor);
      return after;
    });
    this.announce(next, 'updated');
    return next;
  }

  /** A page of a trace's versions, oldest first (history-page.ts). */
  history(p: Principal, q: HistoryQuery): HistoryResponse {
    this.get(p, q.uid);
    return historyPage(this.store, q);
  }

  /**
   * Search the caller's traces (`mode` keyword, semantic or hybrid, default hybrid), best first,
   * with one score in [0,1]. Filters apply to every mode. This is the one search of kairos: chat
   * questions about the past and the planner's matching call it too.
   */
  async search(p: Principal, req: SearchRequest): Promise<SearchResponse> {
    const mode = req.mode ?? 'hybrid';
    const limit = req.limit ?? DEFAULT_SEARCH_LIMIT;
    const scope = searchScopeKey(p.userId, req.space);
    const accept = this.searchFilter(p.userId, req);
    const shape = (ranked: { uid: string; score: number }[]) => this.shape(ranked, limit, markPrefixes(req.query));
    await this.keyword.whenSettled?.();
    const keyword = (): KeywordHit[] => this.keyword.search(scope, req.query, { limit: SEARCH_POOL, accept });
    if (mode === 'keyword' || !this.semantic) {
      return { results: shape(normalizeToTop(keyword())), mode, mode_used: 'keyword' };
    }
    // Hybrid's keyword side already matches the query word by word; word-by-word scoring on top
    // of it counts a literal match twice and ranks the literal matches worse among themselves.
    const sem = await this.semantic.search(scope, req.query, SEARCH_POOL, accept, { wordByWord: mode === 'semantic' });
    if (!sem.available) {
      return { results: shape(normalizeToTop(keyword())), mode, mode_used: 'keyword', embeddings: { ...sem.info, fallback_reason: sem.reason } };
    }
    const neighbours = this.keyword.neighbours?.bind(this.keyword);
    const ranked = mode === 'semantic' ? semanticRanking(sem.hits, neighbours) : fuseHybrid(keyword(), sem.hits, sem.similarity, neighbours);
    return { results: shape(ranked), mode, mode_used: mode, embeddings: sem.info };
  }

  /** The traces a search may return: the user's own in the space searched, unexpired unless asked, matching the filters. */
  private searchFilter(userId: string, req: SearchRequest): (uid: string) => boolean {
    const now = this.clock.now();
    const tag = req.tempo_tag !== undefined ? normalizeTag(req.tempo_tag) : undefined;
    const range = timeRange(req);
    return (uid) => {
      const t = this.store.get('traces', uid);
      return (
        !!t &&
        t.user_id === userId &&
        t.space === req.space &&
        inTimeRange(t, range) &&
        (req.type === undefined || t.type === req.type) &&
        (tag === undefined || t.tempo_tag === tag) &&
        (req.task_id === undefined || t.task_id === req.task_id) &&
        (req.include_expired === true || !isExpired(t, now))
      );
    };
  }

  private shape(ranked: { uid: string; score: number }[], limit: number, prefixes: string[]): SearchResult[] {
    const out: SearchResult[] = [];
    for (const { uid, score } of ranked) {
      const t = this.store.get('traces', uid);
      if (!t) continue;
      out.push({
        uid: t.uid,
        type: t.type,
        task_id: t.task_id,
        timestamp: t.timestamp,
        ...(t.tempo_tag !== undefined ? { tempo_tag: t.tempo_tag } : {}),
        ...(t.space !== undefined ? { space: t.space } : {}),
        summary: summarizeTrace(t),
        ...hitText(t, prefixes),
        score: Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000,
      });
      if (out.length === limit) break;
    }
    return out;
  }

  /**
   * Summaries of the given traces, in the order given. With `max_token_count`, summaries are
   * taken while they fit; the first one that does not is shortened when enough budget is left,
   * and the rest are left out (`truncated: true`).
   */
  async summaries(p: Principal, req: { trace_ids: string[]; max_token_count?: number }) {
    const traces = [...new Set(req.trace_ids)].map((uid) => this.get(p, uid));
    const tk = await loadTokenizer();
    let left = req.max_token_count ?? Infinity;
    let truncated = false;
    const summaries = [];
    for (const t of traces) {
      const fit = fitTokens(tk, summarizeTrace(t), left);
      if (fit.shortened && (left < MIN_USEFUL_TOKENS || !fit.text)) {
        truncated = true;
        break;
      }
      summaries.push({ uid: t.uid, type: t.type, task_id: t.task_id, timestamp: t.timestamp, summary: fit.text, tokens: fit.tokens });
      left -= fit.tokens;
      if (fit.shortened) {
        truncated = true;
        break;
      }
    }
    return { summaries, token_count: summaries.reduce((n, s) => n + s.tokens, 0), truncated };
  }

  /** Traces and their causal links for debugging (POST /debug/trace-dump). */
  dump(p: Principal, sel: DumpSelector): Omit<TraceDump, 'profile'> & { user_id: string } {
    // An admin may dump another user's trace by uid; the walk stays within that trace's owner.
    const userId = sel.trace_uid !== undefined ? this.get(p, sel.trace_uid).user_id : p.userId;
    return { ...dumpTraces(this.store.byIndex('traces', 'user_id', userId), sel), user_id: userId };
  }
}
