import * as nodeIcalNs from 'node-ical';
import type { EventOverride, EventStatus } from '../contracts/calendar.js';
import { isTimeZone } from '../time/zoned-time.js';
import { sourceText } from './kept-text.js';
import { ownProps, parseTime } from './raw-props.js';
import { type Problem, scanIcs, type VeventBlock } from './scan.js';
import { convert, derivedUid, type NEvent, sequenceOf } from './vevent-fields.js';
import { type Ctx, EventError, first, iso, rawInstant } from './vevent-times.js';

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

const isUid = (s: string) => s.length >= 1 && s.length <= 255 && /^[\x21-\x7e][\x20-\x7e]*$/.test(s);

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
