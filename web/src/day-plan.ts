import { addDays, instantOf, wall, weekday } from './time.js';

/** What the calendar needs of a listed event (an event or one occurrence of a series). */
export interface DayEvent {
  uid: string;
  title: string;
  scheduled_for: string;
  duration_minutes: number;
  all_day: boolean;
  status: string;
  source: string;
  occurrence_of?: string;
  recurrence_id?: string;
}

/** A blocked-time rule of the tempo profile: weekly (`HH:MM`, days) or once (two instants). */
export interface BlockedRule {
  start: string;
  end: string;
  days?: string[];
  label?: string;
}

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

/** The hours of a day where the calendar looks for free slots, and the shortest slot it shows. */
export interface FreeOptions {
  from: string;
  to: string;
  minMinutes: number;
}

export const DEFAULT_FREE: FreeOptions = { from: '08:00', to: '20:00', minMinutes: 30 };

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const HHMM = /^\d\d:\d\d$/;
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

/** The blocked intervals of one day in the zone, clipped to it. */
export function blockedOn(date: string, rules: BlockedRule[], zone: string): (Interval & { label?: string })[] {
  const dayStart = instantOf(date, '00:00', zone);
  const dayEnd = instantOf(addDays(date, 1), '00:00', zone);
  const out: (Interval & { label?: string })[] = [];
  const add = (start: number, end: number, label?: string) => {
    const s = Math.max(start, dayStart);
    const e = Math.min(end, dayEnd);
    if (e > s) out.push({ start: s, end: e, ...(label ? { label } : {}) });
  };
  for (const r of rules) {
    if (!HHMM.test(r.start)) {
      add(Date.parse(r.start), Date.parse(r.end), r.label);
      continue;
    }
    // A weekly rule starting on this day, and one that started the day before and runs past midnight.
    for (const d of [addDays(date, -1), date]) {
      if (r.days && !r.days.includes(DAYS[weekday(d)]!)) continue;
      const overnight = r.end <= r.start;
      if (d !== date && !overnight) continue;
      add(instantOf(d, r.start, zone), instantOf(overnight ? addDays(d, 1) : d, r.end, zone), r.label);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The gaps of at least `minMinutes` in [from, to] of the day that no event or blocked time covers. */
export function freeSlots(date: string, taken: Interval[], zone: string, opts: FreeOptions = DEFAULT_FREE): Interval[] {
  let cursor = instantOf(date, opts.from, zone);
  const end = instantOf(date, opts.to, zone);
  const out: Interval[] = [];
  for (const t of [...taken].sort((a, b) => a.start - b.start)) {
    if (t.end <= cursor) continue;
    if (t.start >= end) break;
    if (t.start - cursor >= opts.minMinutes * 60_000) out.push({ start: cursor, end: t.start });
    cursor = Math.max(cursor, t.end);
  }
  if (end - cursor >= opts.minMinutes * 60_000) out.push({ start: cursor, end });
  return out;
}

/** Each day of `dates`: its events (conflicts marked), its blocked time and its free slots. */
export function planDays<E extends DayEvent>(dates: string[], events: E[], rules: BlockedRule[], zone: string, opts: FreeOptions = DEFAULT_FREE): DayPlan<E>[] {
  const conflicts = conflicting(events);
  return dates.map((date) => {
    const own = events
      .filter((e) => (e.all_day ? e.scheduled_for.slice(0, 10) : wall(e.scheduled_for, zone).date) === date)
      .map((event) => ({ event, ...span(event), conflict: conflicts.has(keyOf(event)) }))
      .sort((a, b) => Number(b.event.all_day) - Number(a.event.all_day) || a.start - b.start);
    const blocked = blockedOn(date, rules, zone);
    const taken = [...own.filter((o) => busy(o.event) && !o.event.all_day), ...blocked];
    return { date, events: own, blocked, free: freeSlots(date, taken, zone, opts) };
  });
}
