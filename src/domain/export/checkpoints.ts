import type { CheckpointInfo, ExportFormat } from '../../contracts/export.js';
import type { StoredCheckpoint } from '../../contracts/stored.js';
import { conflict, notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { newId } from '../ids.js';

/** A named record of which version of each trace an export covered. */
export interface NewCheckpoint {
  user_id: string;
  name: string;
  created_at: string;
  export_format: ExportFormat;
  filters: Record<string, unknown>;
  /** uid → version */
  traces: Record<string, number>;
}

export type { StoredCheckpoint };

export function checkpointInfo(cp: StoredCheckpoint): CheckpointInfo {
  return {
    id: cp.id,
    name: cp.name,
    created_at: cp.created_at,
    export_format: cp.export_format,
    trace_count: Object.keys(cp.traces).length,
    filters: cp.filters,
  };
}

/** A checkpoint of the user by cp_ id or by name (404 otherwise, another user's included). */
export function resolveCheckpoint(store: Store, userId: string, ref: string): StoredCheckpoint {
  const byId = store.get('checkpoints', ref);
  const cp = byId?.user_id === userId ? byId : store.byIndex('checkpoints', 'user_id', userId).find((c) => c.name === ref);
  if (!cp) throw notFound(`No checkpoint "${ref}"; list them with GET /context/checkpoints (kairos export --list-checkpoints).`);
  return cp;
}

export function listCheckpoints(store: Store, userId: string): CheckpointInfo[] {
  return store
    .byIndex('checkpoints', 'user_id', userId)
    .slice()
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map(checkpointInfo);
}

/** Save a checkpoint; a name the user already has → 409 (checked inside the transaction). */
export async function saveCheckpoint(store: Store, cp: NewCheckpoint, now: Date): Promise<CheckpointInfo> {
  const doc: StoredCheckpoint = { ...cp, id: newId('cp', now.getTime()) };
  await store.transact((tx) => {
    if (tx.byIndex('checkpoints', 'user_id', cp.user_id).some((c) => c.name === cp.name)) {
      throw conflict(`A checkpoint named "${cp.name}" exists already; pick another name.`, 'conflict', [{ path: 'checkpoint', message: 'name in use' }]);
    }
    tx.put('checkpoints', doc);
  });
  return checkpointInfo(doc);
}
