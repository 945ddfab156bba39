import { createHash } from 'node:crypto';
import { EVENT_STATUSES, type EventOverride, type EventStatus } from '../contracts/calendar.js';
import { instantOf } from '../time/zone-cache.js';
import type { ImportedEvent } from './import.js';
import { ownProps, parseTime, type RawProp, unescapeText } from './raw-props.js';
import type { VeventBlock } from './scan.js';
import { type Ctx, EventError, first, iso, midnight, rawInstant, rdatesOf, ruleOf, timesOf } from './vevent-times.js';

/** node-ical's shape, as far as it is read here. */
export type NDate = Date & { tz?: string; dateOnly?: boolean };
export type NText = string | { val?: unknown; params?: Record<string, string> } | undefined;
export interface NEvent {
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

const text = (v: NText): string => (typeof v === 'string' ? v : typeof v?.val === 'string' ? v.val : v?.val !== undefined ? String(v.val) : '');

/** A UID for an event without a usable one, from what it says. */
export function derivedUid(v: NEvent): string {
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

function rawStatus(props: Map<string, RawProp[]>): EventStatus | undefined {
  const s = first(props, 'STATUS')?.value.trim().toLowerCase();
  return s && (EVENT_STATUSES as readonly string[]).includes(s) ? (s as EventStatus) : undefined;
}

export const sequenceOf = (b: VeventBlock) => Number.parseInt(first(ownProps(b.lines), 'SEQUENCE')?.value ?? '0', 10) || 0;

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

/** One VEVENT (with its overridden instances) as an ImportedEvent, in kairos' terms. */
export function convert(
  v: NEvent,
  uid: string,
  line: number | undefined,
  block: VeventBlock | undefined,
  overrideBlocks: VeventBlock[],
  ctx: Ctx,
): ImportedEvent {
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
