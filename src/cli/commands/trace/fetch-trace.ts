import type { StoredTrace } from '../../../contracts/memory.js';
import type { ApiClient } from '../../../client/http.js';
import { replay, type PatchOperation } from '../../../domain/memory/patch.js';

export interface HistoryBody {
  uid: string;
  versions: { version: number; timestamp: string; actor: string; patch: PatchOperation[] }[];
}

export const fetchHistory = (client: ApiClient, uid: string) => client.request<HistoryBody>('GET', '/memory/history', { query: { uid } });

/**
 * The current trace, rebuilt from its history: replaying every version's patch from `{}` gives
 * the stored trace, so no separate read endpoint is needed (404 for an unknown uid).
 */
export async function fetchTrace(client: ApiClient, uid: string): Promise<StoredTrace> {
  const h = await fetchHistory(client, uid);
  return replay(h.versions.map((v) => v.patch)) as StoredTrace;
}
