import type { EndpointResponse } from '../../../contracts/endpoints.js';

/** One page of an export, as the API answers it. */
export type ExportBody = EndpointResponse<'GET /context/export'>;
type Results = NonNullable<ExportBody['results']>;
type DiffLists = Extract<Results, { added: unknown }>;

function mergeResults(a: Results, b: Results): Results {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b] as Results;
  const x = a as DiffLists;
  const y = b as DiffLists;
  return { added: [...x.added, ...y.added], removed: [...x.removed, ...y.removed], changed: [...x.changed, ...y.changed] };
}

/** Two consecutive pages of one export as one (for --all): results appended, groups merged by key. */
export function mergePages(a: ExportBody, b: ExportBody): ExportBody {
  const out: ExportBody = { ...a, next_cursor: b.next_cursor };
  if (a.results !== undefined && b.results !== undefined) out.results = mergeResults(a.results, b.results);
  if (a.groups && b.groups) {
    const groups = a.groups.map((g) => ({ ...g }));
    for (const g of b.groups) {
      const same = groups.find((x) => x.key === g.key);
      if (same) same.results = mergeResults(same.results, g.results);
      else groups.push(g);
    }
    out.groups = groups;
  }
  if (a.events || b.events) {
    // Two pages may reach the same event.
    const byUid = new Map([...(a.events ?? []), ...(b.events ?? [])].map((e) => [(e as { uid: string }).uid, e]));
    out.events = [...byUid.values()];
  }
  if (a.token_count !== undefined || b.token_count !== undefined) out.token_count = (a.token_count ?? 0) + (b.token_count ?? 0);
  return out;
}
