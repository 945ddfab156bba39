import ical, {
  type ICalCalendar,
  type ICalEventData,
  ICalEventStatus,
  type ICalTemporalInstantStub,
  type ICalTemporalPlainDateStub,
  type ICalTemporalPlainDateTimeStub,
  type ICalTemporalZonedDateTimeStub,
} from 'ical-generator';
import type { z } from 'zod';
import type { CalendarEvent, EventStatus } from '../contracts/calendar.js';
import type { LocalDate, LocalDateTime } from '../time/local-date.js';
import { wallAt } from '../time/zone-cache.js';
import { VERSION } from '../version.js';
import { calendarParts } from './tree.js';
import { vtimezone } from './vtimezone.js';

/** What the exporter reads of an event: a stored calendar event (the API's shape) has all of it. */
export type IcsEvent = Omit<z.infer<typeof CalendarEvent>, 'user_id' | 'source'>;

/** First and last instant an event occupies; `last` is undefined for a series without end. */
export interface EventSpan {
  first: number;
  last: number | undefined;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const basicDate = (w: LocalDate) => `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
const basicUtc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const isoWall = (w: Required<LocalDateTime>) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;

/**
 * A wall time in a zone, in the shape of Temporal.ZonedDateTime that ical-generator reads
 * (its documented Temporal support): it writes `DTSTART;TZID=<zone>:<wall time>` from it. The
 * wall time comes from our own zone arithmetic, so no Temporal polyfill is needed.
 */
class ZonedWall implements ICalTemporalZonedDateTimeStub {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;

  constructor(
    private readonly epochMs: number,
    readonly timeZoneId: string,
  ) {
    const w = wallAt(epochMs, timeZoneId);
    this.year = w.year;
    this.month = w.month;
    this.day = w.day;
    this.hour = w.hour;
    this.minute = w.minute;
    this.second = w.second;
  }

  toInstant(): ICalTemporalInstantStub {
    const ms = this.epochMs;
    const zone = this.timeZoneId;
    return {
      epochMilliseconds: ms,
      toJSON: () => new Date(ms).toISOString(),
      toString: () => new Date(ms).toISOString(),
      toZonedDateTimeISO: (tz: string) => new ZonedWall(ms, tz ?? zone),
    };
  }

  toPlainDateTime(): ICalTemporalPlainDateTimeStub {
    const zone = this.timeZoneId;
    const ms = this.epochMs;
    const date: ICalTemporalPlainDateStub = {
      year: this.year,
      month: this.month,
      day: this.day,
      toJSON: () => isoWall(this).slice(0, 10),
      toString: () => isoWall(this).slice(0, 10),
    };
    return {
      year: this.year,
      month: this.month,
      day: this.day,
      hour: this.hour,
      minute: this.minute,
      second: this.second,
      toJSON: () => isoWall(this),
      toString: () => isoWall(this),
      toPlainDate: () => date,
      toZonedDateTime: (tz: string) => new ZonedWall(ms, tz ?? zone),
    };
  }

  withTimeZone(tz: string): ICalTemporalZonedDateTimeStub {
    return tz === this.timeZoneId ? this : new ZonedWall(this.epochMs, tz);
  }

  toJSON(): string {
    return `${isoWall(this)}[${this.timeZoneId}]`;
  }

  toString(): string {
    return this.toJSON();
  }
}

const STATUS: Record<EventStatus, ICalEventStatus> = {
  confirmed: ICalEventStatus.CONFIRMED,
  tentative: ICalEventStatus.TENTATIVE,
  cancelled: ICalEventStatus.CANCELLED,
};

const DAY = 86_400_000;

/** A floating all-day date as ical-generator wants it: a Date at UTC midnight of that date. */
const dateOnly = (ms: number, tz: string) => {
  const w = wallAt(ms, tz);
  return new Date(Date.UTC(w.year, w.month - 1, w.day));
};

function times(e: IcsEvent, startMs: number, durationMinutes: number): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  if (e.all_day) {
    const start = dateOnly(startMs, e.timezone);
    const days = Math.max(1, Math.round(durationMinutes / 1440));
    return { allDay: true, start, end: new Date(start.getTime() + days * DAY) };
  }
  const endMs = startMs + durationMinutes * 60_000;
  if (e.timezone === 'UTC') return { start: new Date(startMs), end: new Date(endMs) };
  return { timezone: e.timezone, start: new ZonedWall(startMs, e.timezone), end: new ZonedWall(endMs, e.timezone) };
}

/** EXDATE/RDATE/RECURRENCE-ID values: a DATE for all-day events, else the UTC instant (valid with any DTSTART). */
const instantProp = (e: IcsEvent, name: string, iso: string): [string, string] =>
  e.all_day ? [`${name};VALUE=DATE`, basicDate(wallAt(Date.parse(iso), e.timezone))] : [name, basicUtc(Date.parse(iso))];

/**
 * The rule as written: RFC 5545 §3.3.10 wants UNTIL in DTSTART's value type, so next to an
 * all-day (DATE) start a date-time UNTIL becomes its date in the event's zone.
 */
const ruleOf = (e: IcsEvent, rrule: string) =>
  e.all_day
    ? rrule.replace(
        /(^|;)UNTIL=(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/,
        (_, sep: string, y, mo, d, h, mi, se) => `${sep}UNTIL=${basicDate(wallAt(Date.UTC(+y, +mo - 1, +d, +h, +mi, +se), e.timezone))}`,
      )
    : rrule;

function addEvent(cal: ICalCalendar, e: IcsEvent): void {
  const common = {
    // The UID the file it came from gave it: a calendar program that exported it knows it by that.
    id: e.ical_uid ?? e.uid,
    stamp: new Date(e.updated_at),
    created: new Date(e.created_at),
    lastModified: new Date(e.updated_at),
    sequence: e.version - 1,
  };
  const x: [string, string][] = [];
  if (e.task_id) x.push(['X-KAIROS-TASK-ID', e.task_id]);
  for (const r of e.exdates ?? []) x.push(instantProp(e, 'EXDATE', r));
  for (const r of e.rdates ?? []) x.push(instantProp(e, 'RDATE', r));
  cal.createEvent({
    ...common,
    ...times(e, Date.parse(e.scheduled_for), e.duration_minutes),
    summary: e.title,
    ...(e.description ? { description: e.description } : {}),
    ...(e.location ? { location: e.location } : {}),
    ...(e.tag ? { categories: [{ name: e.tag }] } : {}),
    status: STATUS[e.status],
    ...(e.rrule ? { repeating: `RRULE:${ruleOf(e, e.rrule)}` } : {}),
    x,
  });
  for (const o of e.overrides ?? []) {
    const rid = Date.parse(o.recurrence_id);
    const ox: [string, string][] = e.all_day ? [instantProp(e, 'RECURRENCE-ID', o.recurrence_id)] : [];
    cal.createEvent({
      ...common,
      ...times(o.all_day === undefined ? e : { ...e, all_day: o.all_day }, Date.parse(o.scheduled_for), o.duration_minutes),
      ...(e.all_day ? {} : { recurrenceId: e.timezone === 'UTC' ? new Date(rid) : new ZonedWall(rid, e.timezone) }),
      summary: o.title ?? e.title,
      ...((o.description ?? e.description) ? { description: o.description ?? e.description } : {}),
      ...((o.location ?? e.location) ? { location: o.location ?? e.location } : {}),
      status: STATUS[o.status ?? e.status],
      x: ox,
    });
  }
}

export interface ExportOptions<E extends IcsEvent> {
  name?: string;
  now: Date;
  /**
   * The span of an event, recurrence included: the calendar service passes its own expansion
   * (`span` of src/domain/calendar/occurrences.ts), which this translator does not redo. It sizes the
   * VTIMEZONE of each zone used.
   */
  spanOf: (e: E) => EventSpan;
  /**
   * The calendar object an event is written as when kairos keeps the text it was read from
   * (src/ical/lossless.ts): its components are written instead of the event's fields, with the
   * VTIMEZONEs it defines that the calendar does not have already.
   */
  keptOf?: (e: E) => string | undefined;
}

/**
 * Fold content lines at 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence. ical-generator's
 * own foldLines does the same but builds a TextEncoder per character, which made exporting 10,000
 * events take 8 s of its 13; this does it per line, and only for long lines.
 */
export function foldLines(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\r\n')) {
    if (line.length <= 75 && Buffer.byteLength(line) <= 75) {
      out.push(line);
      continue;
    }
    let cur = '';
    let octets = 0;
    let limit = 75;
    for (const ch of line) {
      const cp = ch.codePointAt(0)!;
      const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (octets + size > limit) {
        out.push(cur);
        cur = ' ';
        octets = 1;
        limit = 75;
      }
      cur += ch;
      octets += size;
    }
    out.push(cur);
  }
  return out.join('\r\n');
}

/**
 * Events as an RFC 5545 calendar: CRLF line endings including after the last line (which
 * ical-generator leaves out), lines folded at 75 octets, recurring rules, EXDATE/RDATE and
 * overridden instances kept, UID = the event's uid, and a VTIMEZONE for every zone used.
 */
export function toIcs<E extends IcsEvent>(events: E[], opts: ExportOptions<E>): string {
  return [...icsPieces(events, opts)].join('');
}

/**
 * The calendar of `toIcs` as pieces, each folded and ending in CRLF, and one piece at least per
 * event (an empty one while the time zones are gathered): a caller on the event loop can give
 * the loop back between two of them (the 100 ms rule of docs/architecture.md), and `toIcs` joins them. ical-generator writes the
 * calendar head and each event; one event is held at a time.
 */
export function* icsPieces<E extends IcsEvent>(events: E[], opts: ExportOptions<E>): Generator<string> {
  const nowYear = opts.now.getUTCFullYear();
  let fromYear = nowYear;
  let toYear = nowYear + 10;
  const zones = new Set<string>();
  const kept = new Map<E, string>();
  const keptZones = new Map<string, string>();
  for (const e of events) {
    yield '';
    const parts = opts.keptOf && calendarParts(opts.keptOf(e) ?? '');
    if (parts) {
      kept.set(e, parts.body);
      for (const [id, text] of parts.zones) if (!keptZones.has(id)) keptZones.set(id, text);
    }
    if (e.all_day || e.timezone === 'UTC') continue;
    zones.add(e.timezone);
    const s = opts.spanOf(e);
    fromYear = Math.min(fromYear, new Date(s.first).getUTCFullYear() - 1);
    // An endless series gets 20 years of onsets: readers that trust the VTIMEZONE over the TZID name stay right that long.
    toYear = Math.max(toYear, new Date(s.last ?? s.first).getUTCFullYear() + (s.last === undefined ? 20 : 1));
  }
  const cal = ical({ prodId: { company: 'kairos', product: `kairos ${VERSION}`, language: 'EN' }, name: opts.name ?? 'kairos' });
  const head = cal.toString();
  yield foldLines(head.slice(0, head.lastIndexOf('END:VCALENDAR')));
  for (const tz of [...zones].sort()) yield `${foldLines(vtimezone(tz, fromYear, toYear))}\r\n`;
  for (const [id, text] of keptZones) if (!zones.has(id)) yield text;
  for (const e of events) {
    const body = kept.get(e);
    if (body !== undefined) {
      yield body;
      continue;
    }
    addEvent(cal, e);
    yield foldLines(cal.events().map(String).join(''));
    cal.clear();
  }
  yield 'END:VCALENDAR\r\n';
}
