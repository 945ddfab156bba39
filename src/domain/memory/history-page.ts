import { z } from 'zod';
import type { HistoryQuery, HistoryResponse } from '../../contracts/memory.js';
import type { Reads } from '../../store/store.js';
import { jsonBytes, pageFit } from '../page-bytes.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../page-cursor.js';
import { traceReads } from './traces.js';

/** Where a page of a trace's history ended: the trace (a cursor of another trace is refused) and the last version. */
const HistoryPosition = z.tuple([z.literal('history'), z.string(), z.number().int()]);

/**
 * One page of a trace's versions, oldest first, from the cursor on: a trace edited thousands of
 * times, each version up to 100,000 characters, is read a page of PAGE_BYTES at a time.
 */
export function historyPage(store: Reads, q: HistoryQuery): HistoryResponse {
  const after = q.cursor ? decodeCursor(q.cursor, HistoryPosition) : undefined;
  if (after && after[1] !== q.uid) throw invalidCursor();
  const from = after?.[2] ?? 0;
  const rows = traceReads(store)
    .versionsOf(q.uid)
    .filter((r) => r.version > from)
    .sort((a, b) => a.version - b.version);
  const versions = rows.map((r) => ({ version: r.version, timestamp: r.timestamp, actor: r.actor, patch: r.patch }));
  const page = versions.slice(0, pageFit(versions, jsonBytes));
  const last = page[page.length - 1];
  return { uid: q.uid, versions: page, next_cursor: last && page.length < versions.length ? encodeCursor(['history', q.uid, last.version]) : null };
}
