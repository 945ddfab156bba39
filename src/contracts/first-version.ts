import { isDeepStrictEqual } from 'node:util';
import type { StoredTrace } from './memory.js';
import type { TraceVersion } from './stored.js';

/** The id of a history row: `${uid}#${version}`. */
export const versionId = (uid: string, version: number) => `${uid}#${version}`;

/**
 * A trace's first history row, as the trace gives it while it is unedited. The row would repeat
 * the whole trace (a patch adding it at ""), its uid, user, creation time and author: about half
 * of db.json and a third of the store's heap for small traces. So it is not stored while the
 * trace is at version 1; readers derive it (domain/memory/traces.ts), and the first edit stores it
 * before the edit's own row, from the trace as it still is then.
 */
export function firstVersionOf(trace: StoredTrace): TraceVersion {
  return {
    id: versionId(trace.uid, 1),
    uid: trace.uid,
    user_id: trace.user_id,
    version: 1,
    timestamp: trace.created_at,
    actor: trace.authored_by,
    patch: [{ op: 'add', path: '', value: trace }],
  };
}

/**
 * A stored row that says nothing its trace does not: a first row of a trace still at version 1,
 * equal to the row the trace gives (stores written before first rows were derived hold one a
 * trace). Such a row can be dropped without any reader seeing a difference.
 */
export function isDerivableFirstVersion(row: Record<string, unknown>, trace: Record<string, unknown> | undefined): boolean {
  if (!trace || row.version !== 1 || trace.version !== 1) return false;
  return isDeepStrictEqual(row, firstVersionOf(trace as unknown as StoredTrace));
}
