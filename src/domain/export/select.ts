import type { StoredTrace } from '../../contracts/memory.js';
import type { Store } from '../../store/store.js';
import { traceReads } from '../memory/traces.js';

/** The filters an export shares with pull, times already normalized to UTC ISO strings. */
export interface TraceFilters {
  task_id?: string;
  tempo_tag?: string;
  type?: string;
  /** Inclusive bounds on the trace's timestamp. */
  start?: string;
  end?: string;
}

/** UTC ISO strings of one format compare like the instants they name. */
export function matchesFilters(t: Readonly<Record<string, unknown>>, f: TraceFilters): boolean {
  return (
    (f.task_id === undefined || t.task_id === f.task_id) &&
    (f.tempo_tag === undefined || t.tempo_tag === f.tempo_tag) &&
    (f.type === undefined || t.type === f.type) &&
    (f.start === undefined || (t.timestamp as string) >= f.start) &&
    (f.end === undefined || (t.timestamp as string) <= f.end)
  );
}

/**
 * The user's traces matching the filters; expired ones (valid_until passed) only when asked. Also
 * the earliest valid_until still ahead among them: an export of them is stale from then on.
 */
export function selectTraces(
  store: Store,
  userId: string,
  f: TraceFilters,
  opts: { includeExpired: boolean; now: Date },
): { traces: StoredTrace[]; expiresAt?: number } {
  // The task index is usually far smaller than the user's whole memory.
  const base = f.task_id !== undefined ? traceReads(store).ofTask(f.task_id) : traceReads(store).ofUser(userId);
  const nowIso = opts.now.toISOString();
  const traces: StoredTrace[] = [];
  let expiry: string | undefined;
  for (const t of base) {
    if (t.user_id !== userId || !matchesFilters(t, f)) continue;
    const until = t.valid_until;
    if (until !== undefined) {
      if (until < nowIso && !opts.includeExpired) continue;
      if (until >= nowIso && (expiry === undefined || until < expiry)) expiry = until;
    }
    traces.push(t);
  }
  return { traces, expiresAt: expiry === undefined ? undefined : Date.parse(expiry) };
}
