import type { EventItem } from '../../contracts/calendar.js';
import { wallAt } from '../../time/zone-cache.js';

/** What an overlap reads of an event or occurrence. */
export type Timed = Pick<EventItem, 'uid' | 'title' | 'scheduled_for' | 'duration_minutes' | 'all_day' | 'status' | 'recurrence_id'>;

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (ms: number, tz: string) => {
  const w = wallAt(ms, tz);
  return `${pad(w.hour)}:${pad(w.minute)}`;
};
const span = (e: Timed) => {
  const start = Date.parse(e.scheduled_for);
  return { start, end: start + e.duration_minutes * 60_000 };
};
/** Timed events that hold time: all-day and cancelled ones never overlap anything. */
const holdsTime = (e: Timed) => !e.all_day && e.status !== 'cancelled';

/** “Review” 09:30–11:30, in `tz`. */
export function named(e: Timed, tz: string): string {
  const s = span(e);
  return `“${e.title}” ${hhmm(s.start, tz)}–${hhmm(s.end, tz)}`;
}

/**
 * For each listed event, the other listed events it overlaps (by object identity, so two
 * occurrences of one series are told apart). A sweep over the events sorted by start.
 */
export function overlapsAmong<T extends Timed>(events: readonly T[]): Map<T, T[]> {
  const out = new Map<T, T[]>();
  const sorted = events.filter(holdsTime).sort((a, b) => span(a).start - span(b).start);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    const sa = span(a);
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      const sb = span(b);
      if (sb.start >= sa.end) break;
      if (sb.end <= sa.start) continue;
      out.set(a, [...(out.get(a) ?? []), b]);
      out.set(b, [...(out.get(b) ?? []), a]);
    }
  }
  return out;
}

/** "overlaps “Review” 09:30–11:30, “Call” 10:00–10:15", or '' when there is none. */
export function overlapMark(others: readonly Timed[] | undefined, tz: string): string {
  return others?.length ? `⚠ overlaps ${others.map((o) => named(o, tz)).join(', ')}` : '';
}
