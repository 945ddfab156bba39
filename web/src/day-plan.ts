import type { EventItem } from '../../src/contracts/calendar.js';
import { wall } from './time.js';

/** What the calendar needs of a listed event (an event or one occurrence of a series). */
export type DayEvent = Pick<
  EventItem,
  'uid' | 'title' | 'scheduled_for' | 'duration_minutes' | 'all_day' | 'status' | 'source' | 'occurrence_of' | 'recurrence_id'
>;

export interface Interval {
  start: number;
  end: number;
}

export interface DayPlan<E extends DayEvent> {
  date: string;
  events: { event: E; start: number; end: number; conflict: boolean }[];
  blocked: (Interval & { label?: string })[];
  free: Interval[];
}

const busy = (e: DayEvent) => e.status !== 'cancelled';

function span(e: DayEvent): Interval {
  const start = Date.parse(e.scheduled_for);
  return { start, end: start + Math.max(1, e.duration_minutes) * 60_000 };
}

/** Keys (`uid@start`) of the timed events that overlap another one. */
export function conflicting(events: DayEvent[]): Set<string> {
  const timed = events
    .filter((e) => busy(e) && !e.all_day)
    .map((e) => ({ key: keyOf(e), ...span(e) }))
    .sort((a, b) => a.start - b.start);
  const out = new Set<string>();
  let open: (typeof timed)[number] | undefined;
  for (const t of timed) {
    if (open && t.start < open.end) {
      out.add(open.key);
      out.add(t.key);
    }
    if (!open || t.end > open.end) open = t;
  }
  return out;
}

/** One listed item's identity: a series' occurrences share the uid. */
export function keyOf(e: DayEvent): string {
  return `${e.uid}@${e.recurrence_id ?? e.scheduled_for}`;
}

/**
 * What the daemon answers of one day's time (`GET /calendar/free`): the same free time as
 * `kairos cal free`, from the tempo profile's day less events and blocked time.
 */
export interface FreeDay {
  date: string;
  slots: { start: string; end: string }[];
  blocked: { start: string; end: string; label?: string }[];
}

const interval = (x: { start: string; end: string }): Interval => ({ start: Date.parse(x.start), end: Date.parse(x.end) });

/** Each day of `dates`: its events (conflicts marked), and its blocked time and free slots as the daemon reckons them. */
export function planDays<E extends DayEvent>(dates: string[], events: E[], free: ReadonlyMap<string, FreeDay>, zone: string): DayPlan<E>[] {
  const conflicts = conflicting(events);
  return dates.map((date) => {
    const own = events
      .filter((e) => (e.all_day ? e.scheduled_for.slice(0, 10) : wall(e.scheduled_for, zone).date) === date)
      .map((event) => ({ event, ...span(event), conflict: conflicts.has(keyOf(event)) }))
      .sort((a, b) => Number(b.event.all_day) - Number(a.event.all_day) || a.start - b.start);
    const day = free.get(date);
    return {
      date,
      events: own,
      blocked: (day?.blocked ?? []).map((b) => ({ ...interval(b), ...(b.label ? { label: b.label } : {}) })),
      free: (day?.slots ?? []).map(interval),
    };
  });
}
