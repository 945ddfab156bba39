import { createHash } from 'node:crypto';
import * as nodeIcalNs from 'node-ical';
import { EVENT_STATUSES, type EventOverride, type EventStatus } from '../contracts/calendar.js';
import { type LocalDate, type LocalDateTime, wallFromMs } from '../time/local-date.js';
import { canonicalRrule, RruleError } from '../time/rrule.js';
import { instantOf, wallAt } from '../time/zone-cache.js';
import { isTimeZone } from '../time/zoned-time.js';
import { type Problem, scanIcs, type VeventBlock } from './scan.js';
import { matchVtimezone } from './vtimezone-match.js';

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
  rdates?: string[];
  exdates?: string[];
  overrides?: EventOverride[];
  status: EventStatus;
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
const localWall = (d: Date): Required<LocalDateTime> => ({
  year: d.getFullYear(),
  month: d.getMonth() + 1,
  day: d.getDate(),
  hour: d.getHours(),
  minute: d.getMinutes(),
  second: d.getSeconds(),
});
const utcWall = (d: Date): Required<LocalDateTime> => wallFromMs(d.getTime());
const midnight = (w: LocalDateTime): Required<LocalDateTime> => ({ ...w, hour: 0, minute: 0, second: 0 });
const dayNumber = (w: LocalDate) => Math.round(Date.UTC(w.year, w.month - 1, w.day) / 86_400_000);

/** How the times of one file are read: the user's zone for floating times, matches for unknown TZIDs. */
interface Ctx {
  defaultTz: string;
  vtimezones: string[][];
  tzCache: Map<string, string | undefined>;
  warn: (message: string) => void;
}

const isDateOnly = (d: NDate) => Boolean(d.dateOnly);

/**
 * The zone a node-ical date belongs to. node-ical resolves IANA and Windows names itself; a TZID
 * it cannot resolve (a custom VTIMEZONE) is read as UTC by node-ical, so it is matched here to an
 * IANA zone with the same offsets, and the wall time recovered from the UTC fields.
 */
function zoneOf(d: NDate, ctx: Ctx): { tz: string; wall?: LocalDateTime } {
  const tz = d.tz;
  if (!tz) return { tz: ctx.defaultTz, wall: localWall(d) }; // floating: node-ical used the process zone
  if (/^(Etc\/)?(UTC|GMT|Z)$/i.test(tz)) return { tz: 'UTC' };
  if (isTimeZone(tz)) return { tz };
  if (!ctx.tzCache.has(tz)) {
    const match = matchVtimezone(tz, ctx.vtimezones, d.getTime(), [ctx.defaultTz]);
    ctx.tzCache.set(tz, match);
    ctx.warn(match ? `time zone "${tz}" read as ${match} (same offsets)` : `unknown time zone "${tz}": times read in ${ctx.defaultTz}`);
  }
  return { tz: ctx.tzCache.get(tz) ?? ctx.defaultTz, wall: utcWall(d) };
}

/** Instant of a node-ical date-time; for a date (all-day), local midnight in `tz`. */
function instant(d: NDate, tz: string, ctx: Ctx, allDay: boolean): number {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new EventError('a date-time value is missing or invalid');
  if (allDay || isDateOnly(d)) return instantOf(midnight(isDateOnly(d) ? localWall(d) : wallAt(d.getTime(), tz)), tz);
  const z = zoneOf(d, ctx);
  return z.wall ? instantOf(z.wall, z.tz) : d.getTime();
}

/** RDATE values as node-ical leaves them: strings or {params, val}, comma lists, PERIODs. */
function rdatesOf(raw: unknown, tz: string, allDay: boolean, startWall: Required<LocalDateTime>, ctx: Ctx): number[] {
  const items = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const out: number[] = [];
  for (const item of items) {
    const params = (typeof item === 'object' && item && 'params' in item ? (item as { params: Record<string, string> }).params : {}) ?? {};
    const val = typeof item === 'string' ? item : String((item as { val?: unknown })?.val ?? '');
    for (const v of val.split(',')) {
      const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?(Z)?$/.exec(v.split('/')[0]!.trim());
      if (!m) {
        if (v.trim()) ctx.warn(`ignored an RDATE value it cannot read: "${v}"`);
        continue;
      }
      const w: Required<LocalDateTime> = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: 0, minute: 0, second: 0 };
      if (allDay || !m[4]) {
        const at = allDay ? midnight(w) : { ...w, hour: startWall.hour, minute: startWall.minute, second: startWall.second };
        out.push(instantOf(at, tz));
        continue;
      }
      Object.assign(w, { hour: +m[4]!, minute: +m[5]!, second: +m[6]! });
      if (m[7]) out.push(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
      else {
        const z = params.TZID?.replace(/^"|"$/g, '');
        out.push(instantOf(w, z && isTimeZone(z) ? z : tz));
      }
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

function convert(v: NEvent, uid: string, line: number | undefined, block: VeventBlock | undefined, ctx: Ctx): ImportedEvent {
  const start = v.start;
  if (!(start instanceof Date) || Number.isNaN(start.getTime())) throw new EventError('no valid DTSTART');
  const allDay = isDateOnly(start) || v.datetype === 'date';
  const zone = allDay ? { tz: ctx.defaultTz } : zoneOf(start, ctx);
  const tz = zone.tz;
  const startMs = instant(start, tz, ctx, allDay);
  let duration: number;
  const end = v.end;
  if (end instanceof Date && !Number.isNaN(end.getTime())) {
    if (allDay) {
      const days = dayNumber(isDateOnly(end) ? localWall(end) : wallAt(end.getTime(), tz)) - dayNumber(localWall(start));
      duration = Math.max(1, days) * 1440;
    } else {
      const ez = isDateOnly(end) ? undefined : zoneOf(end, ctx);
      const endMs = !ez ? instantOf(midnight(localWall(end)), tz) : ez.wall ? instantOf(ez.wall, ez.tz) : end.getTime();
      duration = Math.round((endMs - startMs) / 60_000);
      if (duration < 0) throw new EventError('DTEND is before DTSTART');
    }
  } else duration = allDay ? 1440 : 0;

  const ev: ImportedEvent = {
    uid,
    ...(line !== undefined ? { line } : {}),
    title: text(v.summary).trim() || '(no title)',
    scheduled_for: iso(startMs),
    duration_minutes: duration,
    all_day: allDay,
    timezone: tz,
    status: statusOf(v) ?? 'confirmed',
  };
  const description = text(v.description);
  const location = text(v.location);
  if (description) ev.description = description;
  if (location) ev.location = location;
  const category = (Array.isArray(v.categories) ? v.categories : [v.categories]).map((c) => text(c as NText).trim()).find((c) => c && c.length <= 100);
  if (category) ev.tag = category;

  if (v.rrule) {
    const ruleLine = v.rrule
      .toString()
      .split(/\r?\n/)
      .find((l) => /^RRULE:/i.test(l));
    if (ruleLine) {
      try {
        ev.rrule = canonicalRrule(ruleLine);
      } catch (e) {
        if (e instanceof RruleError) throw new EventError(`malformed RRULE: ${e.message}`);
        throw e;
      }
      if ((block?.rrules ?? 0) > 1) ctx.warn(`several RRULEs: only one was kept`);
    }
  }
  const startWall = allDay ? localWall(start) : wallAt(startMs, tz);
  const rdates = rdatesOf(v.rdate, tz, allDay, startWall, ctx).filter((r) => r !== startMs);
  if (rdates.length) ev.rdates = [...new Set(rdates)].sort((a, b) => a - b).map(iso);
  const exdates = new Set<number>();
  for (const d of Object.values(v.exdate ?? {})) {
    try {
      exdates.add(instant(d, tz, ctx, allDay));
    } catch {
      ctx.warn('ignored an EXDATE without a valid date');
    }
  }
  if (exdates.size) ev.exdates = [...exdates].sort((a, b) => a - b).map(iso);

  const overrides = new Map<number, EventOverride>();
  for (const [key, r] of Object.entries(v.recurrences ?? {})) {
    try {
      // node-ical keys each override twice: by date and by ISO instant. For all-day series the date is the identity.
      if (allDay && !/^\d{4}-\d{2}-\d{2}$/.test(key)) continue;
      const rid = allDay
        ? instantOf(midnight({ year: +key.slice(0, 4), month: +key.slice(5, 7), day: +key.slice(8, 10), hour: 0, minute: 0, second: 0 }), tz)
        : instant(r.recurrenceid ?? r.start!, tz, ctx, false);
      if (overrides.has(rid)) continue;
      const o = convert(r, uid, undefined, undefined, { ...ctx, warn: () => {} });
      const ov: EventOverride = { recurrence_id: iso(rid), scheduled_for: o.scheduled_for, duration_minutes: o.duration_minutes };
      if (o.title !== ev.title) ov.title = o.title;
      if (o.description !== undefined && o.description !== ev.description) ov.description = o.description;
      if (o.location !== undefined && o.location !== ev.location) ov.location = o.location;
      const st = statusOf(r);
      if (st && st !== ev.status) ov.status = st;
      overrides.set(rid, ov);
    } catch (e) {
      if (!(e instanceof EventError)) throw e;
      ctx.warn(`ignored an overridden instance: ${e.message}`);
    }
  }
  if (overrides.size) ev.overrides = [...overrides.values()].sort((a, b) => a.recurrence_id.localeCompare(b.recurrence_id));
  return ev;
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
    for (const blocks of groups.values()) {
      try {
        found.push(...vevents(parseICS(`${head}\r\n${blocks.flatMap((b) => b.lines).join('\r\n')}\r\nEND:VCALENDAR\r\n`)));
      } catch (e) {
        errors.push({ ...(blocks[0]!.uid ? { uid: blocks[0]!.uid } : {}), line: blocks[0]!.line, message: (e as Error).message || 'unreadable event' });
      }
    }
  }

  const lineOf = new Map<string, number>();
  // A UID's line is its series' BEGIN:VEVENT, or its first override's when the series is absent.
  for (const b of scan.events) if (b.uid && !b.isOverride && !lineOf.has(b.uid)) lineOf.set(b.uid, b.line);
  for (const b of scan.events) if (b.uid && !lineOf.has(b.uid)) lineOf.set(b.uid, b.line);
  const blockOf = new Map(scan.events.filter((b) => b.uid && !b.isOverride).map((b) => [b.uid!, b]));
  const anonymous = scan.events.filter((b) => !b.uid);
  const ctx: Ctx = { defaultTz, vtimezones: scan.timezones, tzCache: new Map(), warn: () => {} };
  const events: ImportedEvent[] = [];
  const seen = new Set<string>();
  for (const v of found) {
    const rawUid = scan.uids.original(v.uid) ?? '';
    const block = rawUid ? blockOf.get(rawUid) : anonymous.shift();
    const line = rawUid ? lineOf.get(rawUid) : block?.line;
    let uid = rawUid;
    const where = (p: Omit<Problem, 'uid' | 'line'>): Problem => ({ ...(uid ? { uid } : {}), ...(line !== undefined ? { line } : {}), ...p });
    ctx.warn = (message) => warnings.push(where({ message }));
    if (!rawUid || !isUid(rawUid)) {
      uid = derivedUid(v);
      ctx.warn(rawUid ? `UID is not 1–255 printable ASCII characters: derived ${uid}` : `no UID: derived ${uid} from the event's content`);
    }
    if (v.recurrenceid && !v.recurrences) {
      // An overridden instance whose series is not in the file: kept as an event of its own.
      uid = `${uid}#${iso(v.recurrenceid.getTime())}`;
    }
    if (seen.has(uid)) {
      ctx.warn('the same UID appears on several events: the first one was kept');
      continue;
    }
    try {
      events.push(convert(v, uid, line, block, ctx));
      seen.add(uid);
    } catch (e) {
      if (!(e instanceof EventError)) throw e;
      errors.push(where({ message: e.message }));
    }
  }
  return { events, errors, warnings, skipped: scan.otherComponents };
}
