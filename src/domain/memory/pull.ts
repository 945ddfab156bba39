import { z } from 'zod';
import type { StoredTrace } from '../../contracts/memory.js';
import { decodeCursor, encodeCursor } from '../page-cursor.js';

/** Pull and search both hide a trace whose valid_until has passed, unless asked not to. */
export const isExpired = (t: StoredTrace, now: Date) => t.valid_until !== undefined && Date.parse(t.valid_until) < now.getTime();

/** The inclusive time range of a pull or a search, as UTC ISO strings comparable with a trace's timestamp. */
export interface TimeRange {
  start?: string;
  end?: string;
}

export function timeRange(q: { start_time?: string; end_time?: string }): TimeRange {
  return {
    start: q.start_time ? new Date(q.start_time).toISOString() : undefined,
    end: q.end_time ? new Date(q.end_time).toISOString() : undefined,
  };
}

export const inTimeRange = (t: StoredTrace, r: TimeRange) => (r.start === undefined || t.timestamp >= r.start) && (r.end === undefined || t.timestamp <= r.end);

/** The stable order of pull: timestamp, then uid. */
export function compareTraces(a: StoredTrace, b: StoredTrace): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}

/** The position of the last trace of a page: its timestamp and uid. */
const PullPosition = z.tuple([z.string(), z.string()]);

/** An opaque cursor: the position of the last trace of a page, encoded. */
export const pullCursor = (t: StoredTrace): string => encodeCursor([t.timestamp, t.uid]);

export function decodePullCursor(cursor: string): CursorPos {
  const [timestamp, uid] = decodeCursor(cursor, PullPosition);
  return { timestamp, uid };
}

interface CursorPos {
  timestamp: string;
  uid: string;
}

/** Whether trace `t` comes after the cursor position in pull order. */
export const afterCursor = (t: StoredTrace, c: CursorPos) => t.timestamp > c.timestamp || (t.timestamp === c.timestamp && t.uid > c.uid);
