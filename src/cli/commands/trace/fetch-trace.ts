import type { ApiClient } from '../../../client/http.js';
import { replay } from '../../../contracts/patch.js';
import { wholeAnswer } from '../../../platform/whole-answer.js';
import type { Trace } from './format.js';

/** Every version of a trace, all its pages in one answer. */
export const fetchHistory = (client: ApiClient, uid: string) =>
  wholeAnswer('versions', (cursor) => client.call('GET /memory/history', { query: { uid, ...(cursor ? { cursor } : {}) } }));

/**
 * The current trace, rebuilt from its history: replaying every version's patch from `{}` gives
 * the stored trace, so no separate read endpoint is needed (404 for an unknown uid).
 */
export async function fetchTrace(client: ApiClient, uid: string): Promise<Trace> {
  const h = await fetchHistory(client, uid);
  return replay(h.versions.map((v) => v.patch)) as Trace;
}
