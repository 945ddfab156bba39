import type { StoredEvent } from '../../contracts/stored.js';
import type { EventItem, EventOverride, EventStatus } from '../../contracts/calendar.js';
import { lastRuleStart, occurrenceEnd, ruleStarts, type ExpansionBudget, type SeriesRule } from './recurrence.js';

/** A calendar event as stored in the `events` collection (and returned by the API); one occurrence in a range. */
export type { EventItem, StoredEvent };

/** An interval an event keeps busy. */
export interface Busy {
  uid: string;
  recurrence_id?: string;
  title: string;
  start: number;
  end: number;
  status: EventStatus;
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const ms = (iso: string) => Date.parse(iso);

/** A series is anything with more than one occurrence: a rule, extra dates, or overridden instances. */
export const isSeries = (e: StoredEvent) => Boolean(e.rrule || e.rdates?.length || e.overrides?.length);

export function seriesRule(e: StoredEvent): SeriesRule | undefined {
  if (!e.rrule) return undefined;
    // Keyed by what the expansion depends on, so an edited rule can never reuse a stale expansion.
  return { key: [e.scheduled_for, e.timezone, e.all_day, e.rrule].join('\u0000'), start: ms(e.scheduled_for), tz: e.timezone, allDay: e.all_day, rrule: e.rrule };
}

/** [start, end) meets [from, to); a zero-length event counts when its instant is inside. */
const overlaps = (start: number, end: number, from: number, to: number) => start < to && (end > from || start >= from);

const endOf = (e: StoredEvent, start: number, duration = e.duration_minutes) => occurrenceEnd(start, duration, e.timezone, e.all_day);

/**
 * The occurrences of an event overlapping [from, to): the event itself when it does not recur;
 * otherwise the rule's and RDATE's starts minus EXDATEs, with overridden instances replaced by
 * their override (which may have moved into or out of the range).
 */
export function occurrencesIn(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): EventItem[] {
  if (!isSeries(e)) {
    const start = ms(e.scheduled_for);
    return overlaps(start, endOf(e, start), from, to) ? [e] : [];
  }
  const excluded = new Set((e.exdates ?? []).map(ms));
  const overrides = new Map((e.overrides ?? []).map((o) => [ms(o.recurrence_id), o]));
  // An occurrence starting before `from` can still reach into the range.
  const reach = e.all_day ? (Math.round(e.duration_minutes / 1440) + 2) * 86_400_000 : e.duration_minutes * 60_000;
  const starts = new Set<number>();
  const rule = seriesRule(e);
  if (rule) for (const s of ruleStarts(rule, from - reach, to, budget)) starts.add(s);
  else {
    const s = ms(e.scheduled_for);
    if (s >= from - reach && s < to) starts.add(s);
  }
  for (const r of e.rdates ?? []) {
    const s = ms(r);
    if (s >= from - reach && s < to) starts.add(s);
  }
  const out: EventItem[] = [];
  for (const s of starts) {
    if (excluded.has(s) || overrides.has(s)) continue;
    if (overlaps(s, endOf(e, s), from, to)) out.push(occurrence(e, s, s));
  }
  for (const [rid, o] of overrides) {
    if (excluded.has(rid)) continue;
    const s = ms(o.scheduled_for);
    if (overlaps(s, endOf(e, s, o.duration_minutes), from, to)) out.push(occurrence(e, rid, s, o));
  }
  // Same-format ISO strings: code-point order is time order (localeCompare costs far more).
  return out.sort((a, b) => (a.scheduled_for < b.scheduled_for ? -1 : a.scheduled_for > b.scheduled_for ? 1 : 0));
}

function occurrence(e: StoredEvent, rid: number, start: number, o?: EventOverride): EventItem {
  // An occurrence carries the series' fields but not its lists: thousands of occurrences each
  // holding thousands of RDATEs made a listing hundreds of megabytes (the series, as stored, is
  // what `expand=false` lists).
  const { overrides: _o, rdates: _r, exdates: _x, ...series } = e;
  return {
    ...series,
    ...(o?.title !== undefined ? { title: o.title } : {}),
    ...(o?.description !== undefined ? { description: o.description } : {}),
    ...(o?.location !== undefined ? { location: o.location } : {}),
    ...(o?.status !== undefined ? { status: o.status } : {}),
    scheduled_for: iso(start),
    duration_minutes: o?.duration_minutes ?? e.duration_minutes,
    occurrence_of: e.uid,
    recurrence_id: iso(rid),
  };
}

/** Busy intervals of an item (cancelled ones keep nothing busy). */
export function busyOf(item: EventItem): Busy | undefined {
  if (item.status === 'cancelled') return undefined;
  const start = ms(item.scheduled_for);
  return {
    uid: item.uid,
    ...(item.recurrence_id ? { recurrence_id: item.recurrence_id } : {}),
    title: item.title,
    start,
    end: occurrenceEnd(start, item.duration_minutes, item.timezone, item.all_day),
    status: item.status,
  };
}

/**
 * First and last instant an event can occupy (`last` undefined for an endless series): a cheap
 * filter before expanding, and the range test of exports. Loops, not Math.min(...list): an event
 * may hold thousands of RDATEs and a spread of that many arguments overflows the stack.
 */
export function span(e: StoredEvent, budget?: ExpansionBudget): { first: number; last: number | undefined } {
  let first = ms(e.scheduled_for);
  let lastStart = first;
  const see = (t: number) => {
    if (t < first) first = t;
    if (t > lastStart) lastStart = t;
  };
  for (const r of e.rdates ?? []) see(ms(r));
  let longest = e.duration_minutes;
  for (const o of e.overrides ?? []) {
    see(ms(o.scheduled_for));
    if (o.duration_minutes > longest) longest = o.duration_minutes;
  }
  const rule = seriesRule(e);
  if (rule) {
    const l = lastRuleStart(rule, budget);
    if (l === undefined) return { first, last: undefined };
    if (l > lastStart) lastStart = l;
  }
  return { first, last: endOf(e, lastStart, longest) };
}
