import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The external iCalendar corpus and its oracle (../shared/fixtures/ics/external, format in its
 * README): which files there are, what the oracle expects of each, and how kairos' listing is
 * compared with it. Pure helpers; the run itself is ics-external.test.ts.
 */

/** One occurrence as the oracle writes it. */
export interface Occurrence {
  uid: string;
  start: string;
  dur: number;
  all_day: boolean;
  title: string;
}

/** expected/<file>.json */
export interface Expected {
  file: string;
  user_tz: string;
  window: [string, string];
  /** UIDs the oracle could not expand: their occurrences are not compared. */
  unreadable: string[];
  notes: string[];
  occurrences: Occurrence[];
}

/** Every .ics file under `root/corpus`, as paths relative to `root` (`corpus/rie/x.ics`), sorted. */
export function corpusFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ics')) out.push(relative(root, p));
    }
  };
  walk(join(root, 'corpus'));
  return out.sort();
}

/** The oracle's answer for `file` (`corpus/rie/x.ics` → `expected/rie/x.ics.json`). */
export function expectedFor(root: string, file: string): Expected {
  return JSON.parse(readFileSync(join(root, 'expected', `${file.replace(/^corpus\//, '')}.json`), 'utf8')) as Expected;
}

/** The corpus a file belongs to (rie, icalendar, icaljs). */
export const corpusOf = (file: string) => file.split('/')[1] ?? '?';

/** An item of GET /calendar/events, as far as it is compared. */
export interface ListedItem {
  uid: string;
  ical_uid?: string;
  title: string;
  scheduled_for: string;
  duration_minutes: number;
  all_day: boolean;
}

/**
 * The UID the oracle would give a listed item. kairos keeps a file's UID as the key (or as
 * `ical_uid` when another user's event holds the key); an event without a UID gets a derived
 * `kairos-import-…` UID where the oracle writes `?:<title>`; an overridden instance whose series is
 * not in the file is kept as `<uid>#<recurrence-id>`.
 */
export function oracleUid(item: ListedItem): string {
  const uid = item.ical_uid ?? item.uid;
  if (uid.startsWith('kairos-import-')) return `?:${item.title}`;
  return uid.replace(/#\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, '');
}

/**
 * The identity of one occurrence in the comparison: UID, start in UTC, minutes, all-day, title.
 * Titles are compared without surrounding white space, which kairos trims from a SUMMARY.
 */
export const occurrenceKey = (o: Occurrence) =>
  `${o.uid} | ${new Date(o.start).toISOString()} | ${o.dur} min | ${o.all_day ? 'all-day' : 'timed'} | ${o.title.trim()}`;

/** Listed items as the oracle's occurrences: those starting inside the window, unreadable UIDs left out. */
export function asOccurrences(items: ListedItem[], exp: Expected): Occurrence[] {
  const from = Date.parse(exp.window[0]);
  const to = Date.parse(exp.window[1]);
  const skip = new Set(exp.unreadable);
  return (
    items
      .filter((i) => {
        const s = Date.parse(i.scheduled_for);
        return s >= from && s < to;
      })
      // kairos needs a title: an event without SUMMARY gets "(no title)", where the oracle has none.
      .map((i) => ({ uid: oracleUid(i), start: i.scheduled_for, dur: i.duration_minutes, all_day: i.all_day, title: i.title === '(no title)' ? '' : i.title }))
      .filter((o) => !skip.has(o.uid))
  );
}

/** What one multiset holds that the other does not, as keys (each with its count of extra copies). */
export interface Difference {
  missing: string[];
  extra: string[];
}

export function compareOccurrences(expected: Occurrence[], got: Occurrence[]): Difference {
  const count = new Map<string, number>();
  for (const o of expected) count.set(occurrenceKey(o), (count.get(occurrenceKey(o)) ?? 0) + 1);
  for (const o of got) count.set(occurrenceKey(o), (count.get(occurrenceKey(o)) ?? 0) - 1);
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of [...count].sort(([a], [b]) => a.localeCompare(b))) {
    for (let i = 0; i < n; i++) missing.push(k);
    for (let i = 0; i < -n; i++) extra.push(k);
  }
  return { missing, extra };
}

export const same = (d: Difference) => d.missing.length === 0 && d.extra.length === 0;

/** A difference in a few lines: the first missing and extra occurrences and how many there are. */
export function describeDifference(d: Difference, max = 6): string {
  const lines: string[] = [];
  if (d.missing.length) lines.push(`${d.missing.length} expected but not listed:`, ...d.missing.slice(0, max).map((k) => `  - ${k}`));
  if (d.extra.length) lines.push(`${d.extra.length} listed but not expected:`, ...d.extra.slice(0, max).map((k) => `  + ${k}`));
  return lines.join('\n');
}
