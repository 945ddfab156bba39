import type { GroupBy } from '../../contracts/export.js';
import { formatLocalDate } from '../../time/local-date.js';
import { localDateOf } from '../../time/zoned-time.js';

/** The group a trace falls in: its local date in the user's zone, its task or its type. */
export function groupKeyOf(doc: Readonly<Record<string, unknown>>, by: GroupBy, zone: string): string {
  if (by === 'task') return String(doc.task_id ?? '');
  if (by === 'trace_type') return String(doc.type ?? '');
  const ms = Date.parse(String(doc.timestamp));
  return Number.isNaN(ms) ? '' : formatLocalDate(localDateOf(ms, zone));
}

/**
 * Items in groups, each group keeping the items' order. Days are listed oldest first; tasks and
 * types in the order they first appear (so a ranked summary leads with its best group).
 */
export function groupItems<T>(items: readonly T[], keyOf: (item: T) => string, by: GroupBy): { key: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = keyOf(it);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(it);
  }
  const out = [...groups].map(([key, list]) => ({ key, items: list }));
  if (by === 'day') out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}
