import type { EventOverride } from '../../contracts/calendar.js';
import type { ImportedEvent } from '../../ical/import.js';
import { instantOf, midnightAfter, wallAt } from '../../time/zone-cache.js';
import { ruleStarts, type SeriesRule } from './recurrence.js';

/**
 * What a file says about a series that kairos' event shape cannot hold as written, turned into
 * what it can (the expansion these need is the calendar's own, so it happens here and not in
 * src/ical): further RRULEs become RDATEs, EXDATE dates on a timed series become the instants
 * they exclude, a DTSTART the rule does not give stays the first instance, and a
 * RANGE=THISANDFUTURE change becomes an override of every instance it reaches.
 */

const ruleOf = (ev: ImportedEvent, rrule: string): SeriesRule => ({
  key: [ev.scheduled_for, ev.timezone, ev.all_day, rrule].join('\u0000'),
  start: Date.parse(ev.scheduled_for),
  tz: ev.timezone,
  allDay: ev.all_day,
  rrule,
});

const finite = (rrule: string) => /(^|;)(COUNT|UNTIL)=/.test(rrule);
const iso = (ms: number) => new Date(ms).toISOString();

/** Whether the rule's UNTIL (a date: that day in the series' zone; a date-time: its instant) comes before DTSTART. */
function untilBeforeStart(ev: ImportedEvent): boolean {
  const m = /(?:^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?/.exec(ev.rrule ?? '');
  if (!m) return false;
  const start = Date.parse(ev.scheduled_for);
  if (m[4] !== undefined) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) < start;
  const w = wallAt(start, ev.timezone);
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!) < Date.UTC(w.year, w.month - 1, w.day);
}

/** The event with its file-only parts resolved (`extraRrules`, `exdateDays`, `futureOverrides` removed). */
export function resolveImported(input: ImportedEvent, warn: (message: string) => void): ImportedEvent {
  const { extraRrules, exdateDays, futureOverrides, ...ev } = input;
  const start = Date.parse(ev.scheduled_for);
  const rdates = new Set((ev.rdates ?? []).map(Date.parse));
  const exdates = new Set((ev.exdates ?? []).map(Date.parse));

  // RFC 5545 §3.8.5.3: DTSTART is the first instance of the set, whether or not the rule gives it.
  // An UNTIL before DTSTART ends the set before it begins (as dateutil and libical read it).
  const endsBefore = untilBeforeStart(ev);
  const offRule = Boolean(ev.rrule) && !endsBefore && !ruleStarts(ruleOf(ev, ev.rrule!), start, start + 1).includes(start);
  if (offRule) rdates.add(start);

  // RFC 2445 let an event have several RRULEs; the set is their union (RFC 5545 §3.8.5.3 keeps the meaning).
  for (const r of extraRrules ?? []) {
    if (!finite(r)) {
      warn(`a further endless RRULE (${r}) was left out: kairos keeps one endless rule per event`);
      continue;
    }
    for (const s of ruleStarts(ruleOf(ev, r), -Infinity, Infinity)) if (s !== start) rdates.add(s);
  }

  const all = (from: number, to: number) => {
    const out = new Set<number>();
    if (ev.rrule) for (const s of ruleStarts(ruleOf(ev, ev.rrule), from, to)) out.add(s);
    else if (start >= from && start < to) out.add(start);
    for (const r of rdates) if (r >= from && r < to) out.add(r);
    return [...out].sort((a, b) => a - b);
  };

  // EXDATE;VALUE=DATE on a timed series: the instances starting on that date in the series' zone.
  for (const day of exdateDays ?? []) {
    const w = { year: +day.slice(0, 4), month: +day.slice(5, 7), day: +day.slice(8, 10), hour: 0, minute: 0, second: 0 };
    const from = instantOf(w, ev.timezone);
    for (const s of all(from, midnightAfter(w, 1, ev.timezone))) exdates.add(s);
  }

  let overrides = new Map((ev.overrides ?? []).map((o) => [Date.parse(o.recurrence_id), o]));
  // RFC 5545 §3.8.4.4: a RECURRENCE-ID names an instance of the series; one that names none changes nothing.
  for (const rid of [...overrides.keys()]) {
    if (all(rid, rid + 1).length === 0) {
      overrides.delete(rid);
      warn(`RECURRENCE-ID ${iso(rid)} is not an instance of its series: that override was ignored`);
    }
  }
  if (futureOverrides?.length) {
    if (ev.rrule && !finite(ev.rrule)) warn('RECURRENCE-ID;RANGE=THISANDFUTURE on an endless series: only that instance was changed');
    const generated = new Map<number, EventOverride>();
    for (const f of futureOverrides) {
      const rid = Date.parse(f.recurrence_id);
      const delta = Date.parse(f.scheduled_for) - rid;
      // RFC 5545 §3.8.4.4: the change (its shift in time and its properties) reaches every later instance.
      const reach = ev.rrule && !finite(ev.rrule) ? [rid] : all(rid, Infinity);
      for (const s of reach) {
        const { recurrence_id: _r, scheduled_for: _s, ...fields } = f;
        generated.set(s, { ...fields, recurrence_id: iso(s), scheduled_for: iso(s + delta) });
      }
    }
    // A single instance's own override wins over a range that reaches it.
    overrides = new Map([...generated, ...overrides]);
  }

  const out: ImportedEvent = { ...ev };
  const rd = [...rdates].filter((r) => r !== start || offRule);
  if (rd.length) out.rdates = rd.sort((a, b) => a - b).map(iso);
  else delete out.rdates;
  if (exdates.size) out.exdates = [...exdates].sort((a, b) => a - b).map(iso);
  if (overrides.size) out.overrides = [...overrides.values()].sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id));
  else delete out.overrides;
  return out;
}
