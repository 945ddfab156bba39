import type { EventOverride } from '../contracts/calendar.js';
import { SourceFields } from '../contracts/stored.js';
import { instantOf } from '../time/zone-cache.js';
import { isTimeZone } from '../time/zoned-time.js';
import { foldLines } from './export.js';
import { parseLine, parseTime } from './raw-props.js';
import { type Comp, isComp, type Line, nameOf, parseCalendar, writeComp, zoneId } from './tree.js';

/**
 * An edited event written back into the iCalendar text it came from: only the properties whose
 * fields changed are replaced (by the lines kairos' own exporter writes for them), plus SEQUENCE,
 * DTSTAMP and LAST-MODIFIED of each component that changed. Every other line — properties kairos
 * does not model, their parameters, VALARMs and X- components, CREATED — is kept as the source
 * wrote it, folding included. ical.js can edit a parsed component too, but it serialises every
 * property again (folding, parameter quoting, value formats), so untouched lines would not stay
 * byte-for-byte; here they are never re-serialised.
 */

const fresh = (text: string): Line => ({ raw: foldLines(text), text });
const own = (c: Comp, name: string) => c.items.filter((x): x is Line => !isComp(x) && nameOf(x.text) === name);
const events = (cal: Comp) => cal.items.filter((x): x is Comp => isComp(x) && x.name === 'VEVENT');
const recurrenceLine = (c: Comp) => own(c, 'RECURRENCE-ID')[0];

/** Replace the component's own properties `names` with `next`, where the first of them stood (else before its subcomponents). */
function setProps(c: Comp, names: readonly string[], next: Line[]): void {
  const at = c.items.findIndex((x) => !isComp(x) && names.includes(nameOf(x.text) ?? ''));
  const kept = c.items.filter((x) => isComp(x) || !names.includes(nameOf(x.text) ?? ''));
  const where = at >= 0 ? c.items.slice(0, at).filter((x) => isComp(x) || !names.includes(nameOf(x.text) ?? '')).length : firstSub(kept);
  kept.splice(where, 0, ...next);
  c.items = kept;
}

const firstSub = (items: (Line | Comp)[]) => {
  const i = items.findIndex(isComp);
  return i < 0 ? items.length : i;
};

/** The instant a RECURRENCE-ID names, read as the importer reads it (the series' zone for a date, a floating time or a TZID that is not an IANA name). */
function ridMs(line: Line, seriesTz: string, allDay: boolean): number | undefined {
  const p = parseLine(line.text);
  const t = p && parseTime(p.value);
  if (!p || !t) return undefined;
  const w = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
  if (allDay || t.date) return instantOf({ ...w, hour: 0, minute: 0, second: 0 }, seriesTz);
  if (t.utc) return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const tzid = p.params.TZID;
  return instantOf(w, tzid && isTimeZone(tzid) ? tzid : seriesTz);
}

const escapeText = (s: string) => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
const unescapeText = (s: string) => s.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
const basicUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Fields of the series and the properties that carry them. */
const SERIES_PROPS: { fields: (keyof SourceFields)[]; props: string[] }[] = [
  { fields: ['title'], props: ['SUMMARY'] },
  { fields: ['description'], props: ['DESCRIPTION'] },
  { fields: ['location'], props: ['LOCATION'] },
  { fields: ['status'], props: ['STATUS'] },
  { fields: ['scheduled_for', 'duration_minutes', 'all_day', 'timezone'], props: ['DTSTART', 'DTEND', 'DURATION'] },
  { fields: ['rrule'], props: ['RRULE'] },
  { fields: ['rdates'], props: ['RDATE'] },
  { fields: ['exdates'], props: ['EXDATE'] },
];

type Effective = Record<'title' | 'description' | 'location' | 'status' | 'time', unknown>;

/** What an instance shows: its own value, else the series' (an empty text is the instance's "none"). */
const effective = (e: SourceFields, o: EventOverride): Effective => ({
  title: o.title ?? e.title,
  description: (o.description ?? e.description) || null,
  location: (o.location ?? e.location) || null,
  status: o.status ?? e.status,
  time: [o.scheduled_for, o.duration_minutes, o.all_day ?? e.all_day, e.timezone],
});
const OVERRIDE_PROPS: Record<keyof Effective, string[]> = {
  title: ['SUMMARY'],
  description: ['DESCRIPTION'],
  location: ['LOCATION'],
  status: ['STATUS'],
  time: ['DTSTART', 'DTEND', 'DURATION'],
};

/** A changed component: SEQUENCE one up, DTSTAMP and LAST-MODIFIED now. CREATED stays. */
function stamp(c: Comp, now: Date): void {
  const seq = Number.parseInt(/:(\d+)\s*$/.exec(own(c, 'SEQUENCE')[0]?.text ?? '')?.[1] ?? '0', 10);
  const at = basicUtc(now);
  setProps(c, ['SEQUENCE'], [fresh(`SEQUENCE:${seq + 1}`)]);
  setProps(c, ['DTSTAMP'], [fresh(`DTSTAMP:${at}`)]);
  setProps(c, ['LAST-MODIFIED'], [fresh(`LAST-MODIFIED:${at}`)]);
}

/** CATEGORIES with the tag (its first category) replaced, added or taken out; the other categories stay. */
function retag(c: Comp, before: string | null | undefined, after: string | null | undefined): void {
  const lines = own(c, 'CATEGORIES');
  for (const l of lines) {
    const p = /^((?:[^:"]|"[^"]*")*):(.*)$/.exec(l.text);
    if (!p) continue;
    const values = p[2]!.split(/(?<!\\),/);
    const i = values.findIndex((v) => unescapeText(v).trim() === before);
    if (i < 0) continue;
    if (after) values[i] = escapeText(after);
    else values.splice(i, 1);
    const next = values.length ? [fresh(`${p[1]}:${values.join(',')}`)] : [];
    c.items.splice(c.items.indexOf(l), 1, ...next);
    return;
  }
  if (after) setProps(c, ['CATEGORIES'], [...lines, fresh(`CATEGORIES:${escapeText(after)}`)]);
}

const linesOf = (c: Comp | undefined, names: readonly string[]) =>
  (c?.items ?? []).filter((x): x is Line => !isComp(x) && names.includes(nameOf(x.text) ?? '')).map((l) => fresh(l.text));

export interface Rewrite {
  /** The iCalendar text the event was read from (a CalDAV server's object). */
  source: string;
  /** The event as that text reads: what the user changed is what differs from it. */
  base: SourceFields;
  /** The event now. */
  current: SourceFields;
  /** The current event as kairos' exporter writes it (toIcs): the lines of changed properties come from it. */
  generated: () => string;
  now: Date;
}

/**
 * The source with the user's changes written in; undefined when the source is not a calendar this
 * can edit in place (no single series component), and the caller writes the generated text instead.
 */
export function rewriteSource(r: Rewrite): string | undefined {
  if (unchanged(r.base, r.current)) return r.source;
  const cal = parseCalendar(r.source);
  const gen = parseCalendar(r.generated());
  if (!cal || !gen) return undefined;
  const masters = events(cal).filter((c) => !recurrenceLine(c));
  const genMaster = events(gen).find((c) => !recurrenceLine(c));
  if (masters.length !== 1 || !genMaster) return undefined;
  const master = masters[0]!;
  const { base, current } = r;
  const touched = new Set<Comp>();
  const added: Line[] = [];

  for (const g of SERIES_PROPS) {
    if (g.fields.every((f) => same(base[f], current[f]))) continue;
    const next = linesOf(genMaster, g.props);
    setProps(master, g.props, next);
    added.push(...next);
    touched.add(master);
  }
  if (!same(base.tag, current.tag)) {
    retag(master, base.tag, current.tag);
    touched.add(master);
  }
  const taskLine = own(master, 'X-KAIROS-TASK-ID')[0];
  const sourceTask = taskLine ? parseLine(taskLine.text)?.value : undefined;
  if (!same(sourceTask, current.task_id)) {
    setProps(master, ['X-KAIROS-TASK-ID'], linesOf(genMaster, ['X-KAIROS-TASK-ID']));
    touched.add(master);
  }

  // Overridden instances, matched by the instant their RECURRENCE-ID names.
  const byRid = new Map<number, Comp>();
  for (const c of events(cal)) {
    const l = recurrenceLine(c);
    const ms = l && ridMs(l, base.timezone, base.all_day);
    if (ms !== undefined) byRid.set(ms, c);
  }
  const genByRid = new Map<number, Comp>();
  for (const c of events(gen)) {
    const l = recurrenceLine(c);
    const ms = l && ridMs(l, current.timezone, current.all_day);
    if (ms !== undefined) genByRid.set(ms, c);
  }
  const before = new Map((base.overrides ?? []).map((o) => [Date.parse(o.recurrence_id), o]));
  const after = new Map((current.overrides ?? []).map((o) => [Date.parse(o.recurrence_id), o]));
  for (const [rid, o] of after) {
    const was = before.get(rid);
    const comp = byRid.get(rid);
    const g = genByRid.get(rid);
    if (!g) continue;
    if (!was || !comp) {
      if (comp) cal.items.splice(cal.items.indexOf(comp), 1, g);
      else cal.items.splice(cal.items.indexOf(events(cal).at(-1)!) + 1, 0, g);
      added.push(...g.items.filter((x): x is Line => !isComp(x)));
      continue;
    }
    const eb = effective(base, was);
    const ea = effective(current, o);
    for (const k of Object.keys(OVERRIDE_PROPS) as (keyof Effective)[]) {
      if (same(eb[k], ea[k])) continue;
      const next = linesOf(g, OVERRIDE_PROPS[k]);
      setProps(comp, OVERRIDE_PROPS[k], next);
      added.push(...next);
      touched.add(comp);
    }
  }
  for (const rid of before.keys()) {
    const comp = byRid.get(rid);
    if (!after.has(rid) && comp) {
      cal.items.splice(cal.items.indexOf(comp), 1);
      touched.add(master);
    }
  }
  for (const c of touched) stamp(c, r.now);
  addZones(cal, gen, added);
  return `${writeComp(cal).join('\r\n')}\r\n`;
}

const FIELDS = Object.keys(SourceFields.shape) as (keyof SourceFields)[];

/** Whether no field of the source changed: the source is written as it is. */
export const unchanged = (base: SourceFields, current: SourceFields) => FIELDS.every((k) => same(base[k], current[k]));

/** A VTIMEZONE from the generated text for each TZID the new lines use that the source does not define. */
function addZones(cal: Comp, gen: Comp, added: Line[]): void {
  const defined = new Set(cal.items.filter((x): x is Comp => isComp(x) && x.name === 'VTIMEZONE').map(zoneId));
  for (const l of added) {
    const tzid = parseLine(l.text)?.params.TZID;
    if (!tzid || defined.has(tzid)) continue;
    const zone = gen.items.find((x): x is Comp => isComp(x) && x.name === 'VTIMEZONE' && zoneId(x) === tzid);
    if (!zone) continue;
    cal.items.splice(cal.items.findIndex(isComp) < 0 ? cal.items.length : cal.items.findIndex(isComp), 0, zone);
    defined.add(tzid);
  }
}
