import type { ChalkInstance } from 'chalk';
import type { EndpointResponse } from '../../contracts/endpoints.js';
import { midnightAfter, wallAt } from '../../time/zone-cache.js';
import { overlapMark, overlapsAmong } from './overlaps.js';

/** The fields of an event (or occurrence) the views read. */
export type EventView = Pick<
  EndpointResponse<'GET /calendar/events'>['events'][number],
  'uid' | 'title' | 'scheduled_for' | 'duration_minutes' | 'all_day' | 'timezone' | 'tag' | 'location' | 'rrule' | 'status' | 'occurrence_of' | 'recurrence_id'
>;

const pad = (n: number) => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function dayLabel(ms: number, tz: string): string {
  const w = wallAt(ms, tz);
  const dow = DAYS[new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()];
  return `${dow} ${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

export const clock = (ms: number, tz: string) => {
  const w = wallAt(ms, tz);
  return `${pad(w.hour)}:${pad(w.minute)}`;
};

/** One line of an event: time range, title, tag, marks for recurring and cancelled, what it overlaps; `id` shortens its uid. */
export function eventLine(e: EventView, tz: string, c: ChalkInstance, id: (uid: string) => string = (x) => x, overlaps = ''): string {
  const start = Date.parse(e.scheduled_for);
  const when = e.all_day ? 'all day    ' : `${clock(start, tz)}–${clock(start + e.duration_minutes * 60_000, tz)}`;
  const marks = [e.rrule || e.occurrence_of ? '↻' : '', e.status !== 'confirmed' ? `(${e.status})` : ''].filter(Boolean).join(' ');
  const title = e.status === 'cancelled' ? c.strikethrough(e.title) : c.bold(e.title);
  return `  ${c.cyan(when)}  ${title}${e.tag ? ' ' + c.magenta(e.tag) : ''}${e.location ? c.dim(` @ ${e.location}`) : ''}${marks ? ' ' + c.dim(marks) : ''}  ${c.dim(id(e.uid))}${overlaps ? `  ${c.yellow(overlaps)}` : ''}`;
}

/**
 * An agenda: the events grouped under a heading per local day; an all-day event spanning several
 * days is listed on each of them (within [from, to) when given).
 */
export function agenda(
  events: EventView[],
  tz: string,
  c: ChalkInstance,
  range?: { from: number; to: number },
  id: (uid: string) => string = (x) => x,
): string {
  if (!events.length) return c.dim('No events in this range.');
  const overlaps = overlapsAmong(events);
  const rows: { day: string; label: string; order: string; line: string }[] = [];
  for (const e of events) {
    const start = Date.parse(e.scheduled_for);
    if (!e.all_day) {
      rows.push({
        day: dayKey(start, tz),
        label: dayLabel(start, tz),
        order: `1${e.scheduled_for}`,
        line: eventLine(e, tz, c, id, overlapMark(overlaps.get(e), tz)),
      });
      continue;
    }
    // All-day events belong to their own dates, read in their own zone.
    const w = wallAt(start, e.timezone);
    const days = Math.max(1, Math.round(e.duration_minutes / 1440));
    for (let i = 0; i < days; i++) {
      const at = midnightAfter(w, i, e.timezone);
      if (range && (at >= range.to || at + 86_400_000 <= range.from)) continue;
      rows.push({
        day: dayKey(at, e.timezone),
        label: dayLabel(at, e.timezone),
        order: '0',
        line: eventLine(e, e.timezone, c, id) + (days > 1 ? c.dim(` (day ${i + 1}/${days})`) : ''),
      });
    }
  }
  rows.sort((a, b) => a.day.localeCompare(b.day) || a.order.localeCompare(b.order));
  const out: string[] = [];
  let day = '';
  for (const r of rows) {
    if (r.day !== day) {
      if (out.length) out.push('');
      out.push(c.underline(r.label));
      day = r.day;
    }
    out.push(r.line);
  }
  return out.join('\n');
}

const dayKey = (ms: number, tz: string) => {
  const w = wallAt(ms, tz);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
};

/** "Mon 2031-02-10 11:00–11:30 (Europe/Berlin)". */
export function describe(e: EventView, tz: string): string {
  const start = Date.parse(e.scheduled_for);
  if (e.all_day) return `${dayLabel(start, e.timezone)}, ${Math.round(e.duration_minutes / 1440)} day(s)`;
  return `${dayLabel(start, tz)} ${clock(start, tz)}–${clock(start + e.duration_minutes * 60_000, tz)} (${tz})`;
}

/** Where an event starts, as `cal list` shows it: "Mon 2031-02-10 11:00" (in `tz`), or the date of an all-day one. */
export function startLabel(e: Pick<EventView, 'scheduled_for' | 'all_day' | 'timezone'>, tz: string): string {
  const start = Date.parse(e.scheduled_for);
  return e.all_day ? dayLabel(start, e.timezone) : `${dayLabel(start, tz)} ${clock(start, tz)}`;
}
