import { firstVersionOf } from '../../contracts/first-version.js';
import type { StoredTrace, TraceVersion } from '../../contracts/stored.js';
import type { Commit } from '../../store/commit.js';
import type { Reads } from '../../store/store.js';

/**
 * The memory area's reads of its collections (`traces`, `trace_versions`) for the areas that look
 * at memory without owning it (export, plans, tempo, status). Pass the store for the durable state
 * or a transaction for its staged view.
 */
export function traceReads(r: Reads) {
  return {
    get: (uid: string): StoredTrace | undefined => r.get('traces', uid),
    ofUser: (userId: string): StoredTrace[] => r.byIndex('traces', 'user_id', userId),
    ofTask: (taskId: string): StoredTrace[] => r.byIndex('traces', 'task_id', taskId),
    /** Every version row of one trace, in no particular order: the first one derived while the trace is unedited. */
    versionsOf: (uid: string): TraceVersion[] => versionsOf(r, uid),
    /**
     * The stored version rows of one user's traces: those of edited traces (an unedited trace's
     * first row is not stored: `versionsOf` derives it). A scan: only an export as of a past
     * instant asks, and an index on the rows' user (one entry a row) cost every daemon tens of MB
     * at a million.
     */
    versionsOfUser: (userId: string): TraceVersion[] => r.all('trace_versions').filter((v) => v.user_id === userId),
  };
}

function versionsOf(r: Reads, uid: string): TraceVersion[] {
  const rows = r.byIndex('trace_versions', 'uid', uid);
  if (rows.some((v) => v.version === 1)) return rows;
  const trace = r.get('traces', uid);
  // A trace past version 1 keeps its first row since its first edit; without it, its history has a hole.
  return trace?.version === 1 ? [firstVersionOf(trace), ...rows] : rows;
}

/** The traces a committed transaction wrote. */
export const tracesWritten = (commit: Commit): StoredTrace[] => commit.puts('traces');
