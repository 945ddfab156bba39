import type { LocalDate, LocalDateTime } from '../time/local-date.js';
import { canonicalRrule, RruleError } from '../time/rrule.js';
import { instantOf, wallAt } from '../time/zone-cache.js';
import { resolveTzid } from './file-zone.js';
import { parseDuration, parseTime, type RawProp, type RawTime } from './raw-props.js';

/** A fault of one event: it is reported with the event's UID and line, and the rest of the file is read. */
export class EventError extends Error {}

export const iso = (ms: number) => new Date(ms).toISOString();
export const midnight = (w: LocalDateTime): Required<LocalDateTime> => ({ ...w, hour: 0, minute: 0, second: 0 });
const dayNumber = (w: LocalDate) => Math.round(Date.UTC(w.year, w.month - 1, w.day) / 86_400_000);
export const first = (props: Map<string, RawProp[]> | undefined, name: string) => props?.get(name)?.[0];

/** How the times of one file are read: the user's zone for floating times, matches for unknown TZIDs. */
export interface Ctx {
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
export function rawInstant(t: RawTime, params: Record<string, string>, floatTz: string, ctx: Ctx): { ms: number; tz: string } {
  const w = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
  if (t.utc) return { ms: Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second), tz: 'UTC' };
  const tzid = params.TZID;
  if (!tzid) return { ms: instantOf(w, floatTz), tz: floatTz };
  const z = zoneNamed(tzid, ctx, Date.UTC(w.year, w.month - 1, w.day));
  if (!z) return { ms: instantOf(w, ctx.defaultTz), tz: ctx.defaultTz };
  return { ms: z.instant ? z.instant(w) : instantOf(w, z.tz), tz: z.tz };
}

/** RDATEs as written: DATE, DATE-TIME (own TZID) and PERIOD values (RFC 5545 §3.8.5.2), comma lists. */
export function rdatesOf(props: RawProp[], tz: string, allDay: boolean, startWall: Required<LocalDateTime>, ctx: Ctx): { at: number; minutes?: number }[] {
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

/**
 * An RRULE as written, checked; for an all-day series a date-time UNTIL becomes its date (RFC 5545
 * §3.3.10: UNTIL has DTSTART's value type). A rule that cannot be read is left out with a warning
 * (the event keeps its first instance); COUNT next to UNTIL, which the RFC forbids, is dropped first.
 */
export function ruleOf(value: string, allDay: boolean, ctx: Ctx): string | undefined {
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
export function timesOf(props: Map<string, RawProp[]>, ctx: Ctx): Times {
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
