import { createHash } from 'node:crypto';
import * as nodeIcalNs from 'node-ical';
import { EVENT_STATUSES, type EventOverride, type EventStatus } from '../contracts/calendar.js';
import type { LocalDate, LocalDateTime } from '../time/local-date.js';
import { canonicalRrule, RruleError } from '../time/rrule.js';
import { instantOf, wallAt } from '../time/zone-cache.js';
import { isTimeZone } from '../time/zoned-time.js';
import { foldLines } from './export.js';
import { resolveTzid } from './file-zone.js';
import { keepableLines } from './kept-check.js';
import { ownProps, parseDuration, parseTime, type RawProp, type RawTime, unescapeText } from './raw-props.js';
import { type Problem, type Scan, scanIcs, type VeventBlock } from './scan.js';

/** An event read from a file, in kairos' terms (instants in UTC ISO, zone kept for wall-clock rules). */
export interface ImportedEvent {
  uid: string;
  line?: number;
  title: string;
  scheduled_for: string;
  duration_minutes: number;
  all_day: boolean;
  timezone: string;
  description?: string;
  location?: string;
  /** The first CATEGORIES value. */
  tag?: string;
  rrule?: string;
  /** Further RRULEs of the event (RFC 2445 allowed several; their union is the set): expanded into RDATEs by the importer. */
  extraRrules?: string[];
  rdates?: string[];
  exdates?: string[];
  /** EXDATE;VALUE=DATE on a timed series: every instance starting on that date (in the series' zone) is excluded. */
  exdateDays?: string[];
  overrides?: EventOverride[];
  /** RECURRENCE-ID;RANGE=THISANDFUTURE: the change applies to this instance and every later one. */
  futureOverrides?: EventOverride[];
  status: EventStatus;
  /** The event's own text in the file (its VEVENTs and the VTIMEZONEs they name) as one calendar: kept, so an edit is written back into it. */
  source?: string;
}

export interface ParsedCalendar {
  events: ImportedEvent[];
  errors: Problem[];
  warnings: Problem[];
  /** Components that are not events (VTODO, VJOURNAL, VFREEBUSY…). */
  skipped: number;
}

/** node-ical's shape, as far as it is read here. */
type NDate = Date & { tz?: string; dateOnly?: boolean };
type NText = string | { val?: unknown; params?: Record<string, string> } | undefined;
interface NEvent {
  type: string;
  uid?: string;
  summary?: NText;
  description?: NText;
  location?: NText;
  status?: NText;
  start?: NDate;
  end?: NDate;
  datetype?: string;
  recurrenceid?: NDate;
  rrule?: { toString(): string };
  exdate?: Record<string, NDate>;
  rdate?: unknown;
  recurrences?: Record<string, NEvent>;
  categories?: unknown;
}

class EventError extends Error {}

const text = (v: NText): string => (typeof v === 'string' ? v : typeof v?.val === 'string' ? v.val : v?.val !== undefined ? String(v.val) : '');
const isUid = (s: string) => s.length >= 1 && s.length <= 255 && /^[\x21-\x7e][\x20-\x7e]*$/.test(s);
const iso = (ms: number) => new Date(ms).toISOString();
const midnight = (w: LocalDateTime): Required<LocalDateTime> => ({ ...w, hour: 0, minute: 0, second: 0 });
const dayNumber = (w: LocalDate) => Math.round(Date.UTC(w.year, w.month - 1, w.day) / 86_400_000);

/** How the times of one file are read: the user's zone for floating times, matches for unknown TZIDs. */
interface Ctx {
  defaultTz: string;
  /** Floating date-times: the calendar's X-WR-TIMEZONE when it names a zone, else the user's. */
  floatTz: string;
  vtimezones: string[][];
  tzCache: Map<string, ResolvedOrNot>;
  warn: (message: string) => void;
}
type ResolvedOrNot = ReturnType<typeof resolveTzid>;

/** A TZID as the file means it (file-zone.ts), looked up once per file; undefined when nothing says. */
function zoneNamed(tzid: string, ctx: Ctx, aroundMs: number): ResolvedOrNot {
  if (!ctx.tzCache.has(tzid)) {
    const r = resolveTzid(tzid, ctx.vtimezones, aroundMs, [ctx.defaultTz]);
    ctx.tzCache.set(tzid, r);
    if (r?.note) ctx.warn(r.note);
    if (!r) ctx.warn(`unknown time zone "${tzid}": times read in ${ctx.defaultTz}`);
  }
  return ctx.tzCache.get(tzid);
}

/** A DATE-TIME as written (raw-props.ts) as an instant, with the zone it keeps: UTC, its TZID's, or floating in `floatTz`. */
function rawInstant(t: RawTime, params: Record<string, string>, floatTz: string, ctx: Ctx): { ms: number; tz: string } {
  const w = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
  if (t.utc) return { ms: Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second), tz: 'UTC' };
  const tzid = params.TZID;
  if (!tzid) return { ms: instantOf(w, floatTz), tz: floatTz };
  const z = zoneNamed(tzid, ctx, Date.UTC(w.year, w.month - 1, w.day));
  if (!z) return { ms: instantOf(w, ctx.defaultTz), tz: ctx.defaultTz };
  return { ms: z.instant ? z.instant(w) : instantOf(w, z.tz), tz: z.tz };
}

/** RDATEs as written: DATE, DATE-TIME (own TZID) and PERIOD values (RFC 5545 §3.8.5.2), comma lists. */
function rdatesOf(props: RawProp[], tz: string, allDay: boolean, startWall: Required<LocalDateTime>, ctx: Ctx): { at: number; minutes?: number }[] {
  const out: { at: number; minutes?: number }[] = [];
  for (const p of props) {
    for (const v of p.value.split(',')) {
      const [first, second] = v.trim().split('/');
      const t = parseTime(first ?? '');
      if (!t) {
        if (v.trim()) ctx.warn(`ignored an RDATE value it cannot read: "${v}"`);
        continue;
      }
      let at: number;
      if (allDay) at = instantOf(midnight(t), tz);
      // A PERIOD of dates is those whole days; a lone date on a timed series takes DTSTART's time of day.
      else if (t.date && second !== undefined) at = instantOf(midnight(t), tz);
      else if (t.date) at = instantOf({ ...t, hour: startWall.hour, minute: startWall.minute, second: startWall.second }, tz);
      else at = rawInstant(t, p.params, tz, ctx).ms;
      // A PERIOD has a length of its own (RFC 5545 §3.3.9): an end, or a duration.
      let minutes: number | undefined;
      if (second !== undefined) {
        const end = parseTime(second);
        const secs = end ? undefined : parseDuration(second);
        const endMs = end
          ? end.date
            ? instantOf(midnight(end), tz)
            : rawInstant(end, p.params, tz, ctx).ms
          : secs !== undefined
            ? at + secs * 1000
            : undefined;
        if (endMs !== undefined && endMs >= at) minutes = Math.round((endMs - at) / 60_000);
        else ctx.warn(`ignored the length of an RDATE period it cannot read: "${v}"`);
      }
      out.push({ at, ...(minutes !== undefined ? { minutes } : {}) });
    }
  }
  return out;
}

function derivedUid(v: NEvent): string {
  const time = (d: Date | undefined) => (d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : '');
  const h = createHash('sha256')
    .update([text(v.summary), time(v.start), time(v.end), v.rrule?.toString(), text(v.description), text(v.location)].join('\u0000'))
    .digest('hex')
    .slice(0, 24);
  return `kairos-import-${h}`;
}

function statusOf(v: NEvent): EventStatus | undefined {
  const s = text(v.status).toLowerCase();
  return (EVENT_STATUSES as readonly string[]).includes(s) ? (s as EventStatus) : undefined;
}

const first = (props: Map<string, RawProp[]> | undefined, name: string) => props?.get(name)?.[0];

/**
 * An RRULE as written, checked; for an all-day series a date-time UNTIL becomes its date (RFC 5545
 * §3.3.10: UNTIL has DTSTART's value type). A rule that cannot be read is left out with a warning
 * (the event keeps its first instance); COUNT next to UNTIL, which the RFC forbids, is dropped first.
 */
function ruleOf(value: string, allDay: boolean, ctx: Ctx): string | undefined {
  let text = value.trim();
  if (allDay) text = text.replace(/(^|;)UNTIL=(\d{8})T\d{6}Z?/i, '$1UNTIL=$2');
  const tries = [text];
  if (/(^|;)UNTIL=/i.test(text) && /(^|;)COUNT=/i.test(text)) tries.push(text.replace(/(^|;)COUNT=[^;]*/i, ''));
  let problem = '';
  for (const t of tries) {
    try {
      const rule = canonicalRrule(t);
      if (t !== text) ctx.warn(`RRULE has both COUNT and UNTIL: COUNT was dropped`);
      return rule;
    } catch (e) {
      if (!(e instanceof RruleError)) throw e;
      // A rule kairos reads but will not keep (MINUTELY, too dense) is the event's error, as in a create:
      // the event without it would be a different event, not a less detailed one.
      if (e.limit || /(^|;)FREQ=(SECONDLY|MINUTELY)(;|$)/i.test(t)) throw new EventError(`malformed RRULE: ${e.message}`);
      problem ||= e.message;
    }
  }
  ctx.warn(`RRULE "${value.slice(0, 80)}" cannot be read (${problem}): the event was imported without it`);
  return undefined;
}

interface Times {
  startMs: number;
  duration: number;
  allDay: boolean;
  tz: string;
  startWall: Required<LocalDateTime>;
}

/** DTSTART and DTEND/DURATION as written; an end before the start is read as the two swapped (with a warning). */
function timesOf(props: Map<string, RawProp[]>, ctx: Ctx): Times {
  const dts = props.get('DTSTART') ?? [];
  if (dts.length > 1) throw new EventError('duplicate DTSTART');
  const sp = dts[0];
  const st = sp && parseTime(sp.value);
  if (!sp || !st) throw new EventError('no valid DTSTART');
  const allDay = st.date || sp.params.VALUE?.toUpperCase() === 'DATE';
  const start = allDay ? { ms: instantOf(midnight(st), ctx.defaultTz), tz: ctx.defaultTz } : rawInstant(st, sp.params, ctx.floatTz, ctx);
  const tz = start.tz;
  const ep = first(props, 'DTEND');
  const et = ep && parseTime(ep.value);
  const dur = first(props, 'DURATION');
  let duration: number;
  if (et) {
    if (allDay) duration = (dayNumber(et.date ? et : wallAt(rawInstant(et, ep.params, tz, ctx).ms, tz)) - dayNumber(st)) * 1440;
    else duration = Math.round(((et.date ? instantOf(midnight(et), tz) : rawInstant(et, ep.params, tz, ctx).ms) - start.ms) / 60_000);
  } else if (dur && parseDuration(dur.value) !== undefined) {
    const secs = parseDuration(dur.value)!;
    duration = allDay ? Math.ceil(secs / 86_400) * 1440 : Math.round(secs / 60);
  } else duration = allDay ? 1440 : 0;
  let startMs = start.ms;
  if (duration < 0) {
    ctx.warn('DTEND is before DTSTART: read as the two swapped');
    if (allDay) startMs = instantOf(midnight(wallAt(startMs + duration * 60_000, tz)), tz);
    else startMs += duration * 60_000;
    duration = -duration;
  }
  if (allDay) duration = Math.max(1440, duration);
  return { startMs, duration, allDay, tz, startWall: allDay ? midnight(wallAt(startMs, tz)) : wallAt(startMs, tz) };
}

function rawStatus(props: Map<string, RawProp[]>): EventStatus | undefined {
  const s = first(props, 'STATUS')?.value.trim().toLowerCase();
  return s && (EVENT_STATUSES as readonly string[]).includes(s) ? (s as EventStatus) : undefined;
}

const sequenceOf = (b: VeventBlock) => Number.parseInt(first(ownProps(b.lines), 'SEQUENCE')?.value ?? '0', 10) || 0;

const textOf = (props: Map<string, RawProp[]> | undefined, name: string, fallback: NText): string => {
  const p = first(props, name);
  return p ? unescapeText(p.value) : text(fallback);
};

/** An overridden instance from its own VEVENT (RECURRENCE-ID and what it changes), in the series' terms. */
function overrideOf(props: Map<string, RawProp[]>, series: ImportedEvent, ctx: Ctx): { ov: EventOverride; future: boolean } {
  const ridProp = first(props, 'RECURRENCE-ID')!;
  const rt = parseTime(ridProp.value);
  if (!rt) throw new EventError('RECURRENCE-ID is not a date or date-time');
  // Of an all-day series the instance is its date, as written (Exchange writes `TZID=…:20200416T000000`).
  const rid = series.all_day || rt.date ? instantOf(midnight(rt), series.timezone) : rawInstant(rt, ridProp.params, series.timezone, ctx).ms;
  const t = timesOf(props, ctx);
  const ov: EventOverride = { recurrence_id: iso(rid), scheduled_for: iso(t.startMs), duration_minutes: t.duration };
  const title = textOf(props, 'SUMMARY', undefined).trim() || '(no title)';
  if (first(props, 'SUMMARY') && title !== series.title) ov.title = title;
  // The instance is what its own component says (RFC 5545 §3.8.4.4): without a DESCRIPTION or
  // LOCATION it has none, whatever the series has ('' says so).
  const description = textOf(props, 'DESCRIPTION', undefined);
  if (description !== (series.description ?? '')) ov.description = description;
  const location = textOf(props, 'LOCATION', undefined);
  if (location !== (series.location ?? '')) ov.location = location;
  const st = textOf(props, 'STATUS', undefined).toLowerCase();
  if ((EVENT_STATUSES as readonly string[]).includes(st) && st !== series.status) ov.status = st as EventStatus;
  if (t.allDay !== series.all_day) ov.all_day = t.allDay;
  return { ov, future: ridProp.params.RANGE?.toUpperCase() === 'THISANDFUTURE' };
}

function convert(v: NEvent, uid: string, line: number | undefined, block: VeventBlock | undefined, overrideBlocks: VeventBlock[], ctx: Ctx): ImportedEvent {
  const props = block ? ownProps(block.lines) : undefined;
  if (!props) throw new EventError('no valid DTSTART');
  const t = timesOf(props, ctx);
  const { allDay, tz } = t;
  const ev: ImportedEvent = {
    uid,
    ...(line !== undefined ? { line } : {}),
    title: textOf(props, 'SUMMARY', v.summary).trim() || '(no title)',
    scheduled_for: iso(t.startMs),
    duration_minutes: t.duration,
    all_day: allDay,
    timezone: tz,
    status: rawStatus(props) ?? statusOf(v) ?? 'confirmed',
  };
  const description = textOf(props, 'DESCRIPTION', v.description);
  const location = textOf(props, 'LOCATION', v.location);
  if (description) ev.description = description;
  if (location) ev.location = location;
  const category = (props.get('CATEGORIES') ?? [])
    .flatMap((p) => p.value.split(/(?<!\\),/))
    .map((c) => unescapeText(c).trim())
    .find((c) => c && c.length <= 100);
  if (category) ev.tag = category;

  // A VEVENT with a RECURRENCE-ID is one instance (RFC 5545 §3.8.4.4): a rule or dates in it recur nothing.
  if (block?.isOverride) for (const k of ['RRULE', 'RDATE', 'EXDATE']) if (props.delete(k)) ctx.warn(`ignored ${k} in an overridden instance`);
  const rules = (props.get('RRULE') ?? []).map((r) => ruleOf(r.value, allDay, ctx)).filter((r): r is string => r !== undefined);
  if (rules.length) {
    ev.rrule = rules[0]!;
    if (rules.length > 1) ev.extraRrules = rules.slice(1);
  }
  const rdates = rdatesOf(props.get('RDATE') ?? [], tz, allDay, t.startWall, ctx);
  const periods = new Map<number, number>();
  for (const r of rdates) if (r.minutes !== undefined && r.minutes !== t.duration) periods.set(r.at, r.minutes);
  const rdateSet = new Set(rdates.map((r) => r.at).filter((r) => r !== t.startMs));
  if (rdateSet.size) ev.rdates = [...rdateSet].sort((a, b) => a - b).map(iso);
  const exdates = new Set<number>();
  const exdateDays = new Set<string>();
  for (const p of props.get('EXDATE') ?? []) {
    for (const val of p.value.split(',')) {
      const x = parseTime(val);
      if (!x) {
        if (val.trim()) ctx.warn('ignored an EXDATE without a valid date');
        continue;
      }
      if (allDay) exdates.add(instantOf(midnight(x), tz));
      else if (x.date) exdateDays.add(`${String(x.year).padStart(4, '0')}-${String(x.month).padStart(2, '0')}-${String(x.day).padStart(2, '0')}`);
      else exdates.add(rawInstant(x, p.params, tz, ctx).ms);
    }
  }
  if (exdates.size) ev.exdates = [...exdates].sort((a, b) => a - b).map(iso);
  if (exdateDays.size) ev.exdateDays = [...exdateDays].sort();

  const overrides = new Map<number, EventOverride>();
  const future: EventOverride[] = [];
  // An RDATE PERIOD longer or shorter than the event is that instance with its own length.
  for (const [at, minutes] of periods) overrides.set(at, { recurrence_id: iso(at), scheduled_for: iso(at), duration_minutes: minutes });
  for (const b of overrideBlocks) {
    try {
      const { ov, future: isFuture } = overrideOf(ownProps(b.lines), ev, { ...ctx, warn: () => {} });
      const rid = Date.parse(ov.recurrence_id);
      if (isFuture) future.push(ov);
      else if (overrides.has(rid) && !periods.has(rid)) ctx.warn(`RECURRENCE-ID ${ov.recurrence_id} appears twice: the first was kept`);
      else overrides.set(rid, ov);
    } catch (e) {
      if (!(e instanceof EventError)) throw e;
      ctx.warn(`ignored an overridden instance: ${e.message}`);
    }
  }
  if (overrides.size) ev.overrides = [...overrides.values()].sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id));
  if (future.length) ev.futureOverrides = future.sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id));
  return ev;
}

/**
 * An event's blocks as written, with the VTIMEZONEs they name, as one calendar object; undefined
 * when the text alone does not place the event in time (a floating time, read in the calendar's
 * X-WR-TIMEZONE or the user's zone; a TZID that is neither an IANA name nor defined in the file)
 * or is not text to write out again (kept-check.ts).
 */
function sourceText(scan: Scan, blocks: VeventBlock[]): string | undefined {
  const raw = (b: { line: number; end: number }) => refold(scan.physical.slice(b.line - 1, b.end));
  const events = blocks.map(raw);
  const lines = events.flatMap((t) => t.replace(/\r?\n[ \t]/g, '').split(/\r?\n/));
  if (lines.some((l) => /^(DTSTART|DTEND|RECURRENCE-ID|RDATE|EXDATE)(;(?![^:]*TZID=)[^:]*)?:[^Z]*\d{8}T\d{6}(?!Z)(,|$)/i.test(l))) return undefined;
  const tzids = new Set(lines.flatMap((l) => [...l.matchAll(/;TZID=("[^"]*"|[^;:]*)/gi)].map((m) => m[1]!.replace(/^"|"$/g, ''))));
  const defined = new Set(scan.zoneBlocks.map((z) => z.tzid));
  if ([...tzids].some((id) => !defined.has(id) && !isTimeZone(id))) return undefined;
  const zones = scan.zoneBlocks.filter((z) => z.tzid !== undefined && tzids.has(z.tzid)).map(raw);
  if (![...events, ...zones].every((t) => keepableLines(t.split('\r\n')))) return undefined;
  return `${['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//kairos//kept source//EN', ...zones, ...events, 'END:VCALENDAR'].join('\r\n')}\r\n`;
}

/**
 * Physical lines CRLF-joined, a content line with a physical line over 75 octets folded again
 * (RFC 5545 §3.1: folding carries no meaning); every other content line as written.
 */
function refold(physical: string[]): string {
  const out: string[][] = [];
  for (const l of physical) {
    if (/^[ \t]/.test(l) && out.length) out[out.length - 1]!.push(l);
    else out.push([l]);
  }
  return out.map((c) => (c.some((l) => Buffer.byteLength(l) > 75) ? foldLines(c.map((l, i) => (i ? l.slice(1) : l)).join('')) : c.join('\r\n'))).join('\r\n');
}

// node-ical is CommonJS: under ESM its exports arrive as the default export.
const nodeIcal = ((nodeIcalNs as unknown as { default?: typeof nodeIcalNs }).default ?? nodeIcalNs) as typeof nodeIcalNs;
const parseICS = (s: string) => nodeIcal.sync.parseICS(s) as unknown as Record<string, NEvent>;

/**
 * Read an iCalendar file into events. Never throws for bad input: an event that cannot be read is
 * an error with its UID and line, the rest is returned. node-ical parses the whole file at once;
 * only when it gives up on the file is each event (with its overrides) parsed on its own, so one
 * broken event costs only itself.
 */
export function parseIcs(input: string, defaultTz: string): ParsedCalendar {
  const scan = scanIcs(input);
  const errors: Problem[] = [];
  const warnings: Problem[] = [...scan.repairs];
  const found: NEvent[] = [];
  const vevents = (r: Record<string, NEvent>) => Object.values(r).filter((v) => v && v.type === 'VEVENT');
  try {
    found.push(...vevents(parseICS(scan.text)));
  } catch {
    const groups = new Map<string, VeventBlock[]>();
    scan.events.forEach((b, i) => {
      const k = b.uid ?? `#${i}`;
      groups.set(k, [...(groups.get(k) ?? []), b]);
    });
    const head = ['BEGIN:VCALENDAR', 'VERSION:2.0', ...scan.timezones.flat()].join('\r\n');
    const parseGroup = (lines: string[]) => vevents(parseICS(`${head}\r\n${lines.join('\r\n')}\r\nEND:VCALENDAR\r\n`));
    for (const blocks of groups.values()) {
      const lines = blocks.flatMap((b) => b.lines);
      try {
        found.push(...parseGroup(lines));
      } catch (e) {
        // node-ical refuses a whole event over a rule it cannot read (`RRULE:` empty, a bad BYDAY); the
        // rules are read from the file's text here anyway, so the event is tried again without them.
        try {
          found.push(...parseGroup(lines.filter((l) => !/^(RRULE|EXRULE)[;:]/i.test(l))));
        } catch {
          errors.push({ ...(blocks[0]!.uid ? { uid: blocks[0]!.uid } : {}), line: blocks[0]!.line, message: (e as Error).message || 'unreadable event' });
        }
      }
    }
  }

  const lineOf = new Map<string, number>();
  // A UID's line is its series' BEGIN:VEVENT, or its first override's when the series is absent.
  for (const b of scan.events) if (b.uid && !b.isOverride && !lineOf.has(b.uid)) lineOf.set(b.uid, b.line);
  for (const b of scan.events) if (b.uid && !lineOf.has(b.uid)) lineOf.set(b.uid, b.line);
  const blockOf = new Map<string, VeventBlock>();
  const overridesOf = new Map<string, VeventBlock[]>();
  for (const b of scan.events) {
    if (!b.uid) continue;
    if (!b.isOverride) {
      // The same series written twice: the later revision (RFC 5545 §3.8.7.4 SEQUENCE, then file order) is the one.
      const had = blockOf.get(b.uid);
      if (!had || sequenceOf(b) >= sequenceOf(had)) blockOf.set(b.uid, b);
    } else overridesOf.set(b.uid, [...(overridesOf.get(b.uid) ?? []), b]);
  }
  const anonymous = scan.events.filter((b) => !b.uid);
  const floatTz = scan.calendarTz && isTimeZone(scan.calendarTz) ? scan.calendarTz : defaultTz;
  const ctx: Ctx = { defaultTz, floatTz, vtimezones: scan.timezones, tzCache: new Map(), warn: () => {} };
  const events: ImportedEvent[] = [];
  const seen = new Set<string>();
  const orphans = new Map<string, NEvent>();
  const add = (v: NEvent, rawUid: string, line: number | undefined, block: VeventBlock | undefined, overrides: VeventBlock[], orphanRid?: string) => {
    let uid = rawUid;
    const warned = warnings.length;
    const where = (p: Omit<Problem, 'uid' | 'line'>): Problem => ({ ...(uid ? { uid } : {}), ...(line !== undefined ? { line } : {}), ...p });
    ctx.warn = (message) => warnings.push(where({ message }));
    if (!rawUid || !isUid(rawUid)) {
      uid = derivedUid(v);
      ctx.warn(rawUid ? `UID is not 1–255 printable ASCII characters: derived ${uid}` : `no UID: derived ${uid} from the event's content`);
    }
    // An overridden instance whose series is not in the file: kept as an event of its own.
    if (orphanRid) uid = `${uid}#${orphanRid}`;
    if (seen.has(uid)) {
      ctx.warn('the same UID appears on several events: the first one was kept');
      return;
    }
    try {
      const ev = convert(v, uid, line, block, overrides, ctx);
      // The text is kept only where kairos read it as written: nothing repaired, nothing warned about.
      const blocks = block && !block.isOverride && !orphanRid && warnings.length === warned ? [block, ...overrides] : [];
      const repaired = blocks.some((b) => scan.repairs.some((r) => r.line !== undefined && r.line >= b.line && r.line <= b.end));
      const source = blocks.length && !repaired ? sourceText(scan, blocks) : undefined;
      if (source) ev.source = source;
      events.push(ev);
      seen.add(uid);
    } catch (e) {
      // Whatever one event does, it costs only itself: an error of its own, never the whole import.
      errors.push(where({ message: e instanceof EventError ? e.message : `unreadable event: ${(e as Error)?.message ?? e}` }));
    }
  };
  for (const v of found) {
    const rawUid = scan.uids.original(v.uid) ?? '';
    if (rawUid && !blockOf.has(rawUid)) {
      orphans.set(rawUid, v);
      continue;
    }
    const block = rawUid ? blockOf.get(rawUid) : anonymous.shift();
    add(v, rawUid, rawUid ? lineOf.get(rawUid) : block?.line, block, rawUid ? (overridesOf.get(rawUid) ?? []) : []);
  }
  for (const [rawUid, v] of orphans) {
    for (const b of overridesOf.get(rawUid) ?? []) {
      const rid = first(ownProps(b.lines), 'RECURRENCE-ID');
      const t = rid && parseTime(rid.value);
      const ridIso = t ? iso(t.date ? Date.UTC(t.year, t.month - 1, t.day) : rawInstant(t, rid.params, defaultTz, ctx).ms) : String(b.line);
      add(v, rawUid, b.line, b, [], t?.date ? ridIso.slice(0, 10) : ridIso);
    }
  }
  for (const d of scan.damage) errors.push(d);
  return { events, errors, warnings, skipped: scan.otherComponents };
}
