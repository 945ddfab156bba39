import type { EventItem, EventOverride, EventStatus } from '../../contracts/calendar.js';
import type { StoredEvent } from '../../contracts/stored.js';
import { type ExpansionBudget, lastRuleStart, occurrenceEnd, ruleStarts, type SeriesRule } from './recurrence.js';

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
  return {
    key: [e.scheduled_for, e.timezone, e.all_day, e.rrule].join('\u0000'),
    start: ms(e.scheduled_for),
    tz: e.timezone,
    allDay: e.all_day,
    rrule: e.rrule,
  };
}

/** [start, end) meets [from, to); a zero-length event counts when its instant is inside. */
const overlaps = (start: number, end: number, from: number, to: number) => start < to && (end > from || start >= from);

const endOf = (e: StoredEvent, start: number, duration = e.duration_minutes) => occurrenceEnd(start, duration, e.timezone, e.all_day);

/** One occurrence found in a range: its identity (original start), its start, and its override. */
interface Found {
  rid: number;
  start: number;
  o?: EventOverride;
}

/**
 * The occurrences of a series overlapping [from, to), unsorted: the rule's and RDATE's starts
 * minus EXDATEs, with overridden instances replaced by their override (which may have moved into
 * or out of the range).
 */
function found(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): Found[] {
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
  const out: Found[] = [];
  for (const s of starts) {
    if (excluded.has(s) || overrides.has(s)) continue;
    if (overlaps(s, endOf(e, s), from, to)) out.push({ rid: s, start: s });
  }
  for (const [rid, o] of overrides) {
    if (excluded.has(rid)) continue;
    const s = ms(o.scheduled_for);
    if (overlaps(s, endOf(e, s, o.duration_minutes), from, to)) out.push({ rid, start: s, o });
  }
  return out;
}

/**
 * The occurrences of an event overlapping [from, to), by start: the event itself when it does
 * not recur; otherwise its series' occurrences (see `found`).
 */
export function occurrencesIn(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): EventItem[] {
  const m = occurrenceMaker(e, from, to, budget);
  return Array.from({ length: m.length }, (_, i) => m.at(i));
}

/**
 * occurrencesIn, made one at a time: `length` occurrences, `at(i)` builds the i-th by start. A
 * listing on the event loop builds thousands of them, pausing between two.
 */
export function occurrenceMaker(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): { length: number; at(i: number): EventItem } {
  if (!isSeries(e)) {
    const start = ms(e.scheduled_for);
    return overlaps(start, endOf(e, start), from, to) ? { length: 1, at: () => e } : { length: 0, at: () => e };
  }
  // An occurrence carries the series' fields but not its lists: thousands of occurrences each
  // holding thousands of RDATEs made a listing hundreds of megabytes (the series, as stored, is
  // what `expand=false` lists). The rest of the series is copied once, not once per occurrence.
  const { overrides: _o, rdates: _r, exdates: _x, ...series } = e;
  const list = found(e, from, to, budget).sort((a, b) => a.start - b.start);
  return { length: list.length, at: (i) => occurrence(series as StoredEvent, e, list[i]!) };
}

/**
 * What the event keeps busy in [from, to), by start: its occurrences' intervals without building
 * the occurrences (a conflict sweep over series of thousands of RDATEs needs only the times).
 * Cancelled occurrences keep nothing busy.
 */
export function busyIn(e: StoredEvent, from: number, to: number, budget?: ExpansionBudget): Busy[] {
  // An all-day event (a holiday, a birthday, a trip) marks the day; it does not fill its hours.
  if (e.all_day) return [];
  if (!isSeries(e)) {
    const start = ms(e.scheduled_for);
    return e.status !== 'cancelled' && overlaps(start, endOf(e, start), from, to)
      ? [{ uid: e.uid, title: e.title, start, end: endOf(e, start), status: e.status }]
      : [];
  }
  const out: Busy[] = [];
  for (const f of found(e, from, to, budget)) {
    const status = f.o?.status ?? e.status;
    if (status === 'cancelled') continue;
    out.push({ uid: e.uid, recurrence_id: iso(f.rid), title: f.o?.title ?? e.title, start: f.start, end: endOf(e, f.start, f.o?.duration_minutes), status });
  }
  return out.sort((a, b) => a.start - b.start);
}

function occurrence(series: StoredEvent, e: StoredEvent, f: Found): EventItem {
  const o = f.o;
  const item: EventItem = {
    ...series,
    ...(o?.title !== undefined ? { title: o.title } : {}),
    ...(o?.description !== undefined ? { description: o.description } : {}),
    ...(o?.location !== undefined ? { location: o.location } : {}),
    ...(o?.status !== undefined ? { status: o.status } : {}),
    ...(o?.all_day !== undefined ? { all_day: o.all_day } : {}),
    scheduled_for: iso(f.start),
    duration_minutes: o?.duration_minutes ?? e.duration_minutes,
    occurrence_of: e.uid,
    recurrence_id: iso(f.rid),
  };
  // An instance without a description or location of its own has none (its override holds '').
  if (item.description === '') delete item.description;
  if (item.location === '') delete item.location;
  return item;
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
