// The events something overlaps, named by title and time rather than by uid: `cal add`'s warning,
// the actions of a plan and the items of a preview all say it this way.
import type { ApiClient } from '../../client/http.js';
import { allEvents } from '../input/all-events.js';
import { dayLabel, startLabel } from '../output/calendar-format.js';
import { named } from '../output/overlaps.js';

export interface Overlapping {
  scheduled_for: string;
  duration_minutes: number;
  conflicts?: readonly string[];
}

/** Overlap names by uid, for the items given: a stand-in for each uid the daemon names in `conflicts`. */
export type OverlapNames = ReadonlyMap<string, string>;

/**
 * `“Standup” Tue 2031-01-07 09:00–10:30 (ev_…)` for each event the items overlap, in `tz`.
 * Occurrences within an item's span are named at their own time; an event overlapped only later
 * (a series) by where it starts. Nothing is asked of the daemon when nothing overlaps.
 */
export async function overlapNames(client: ApiClient, items: readonly Overlapping[], tz: string): Promise<OverlapNames> {
  const said = new Map<string, string>();
  const wanted = new Set(items.flatMap((i) => i.conflicts ?? []));
  for (const item of items) {
    if (!item.conflicts?.length) continue;
    const start = Date.parse(item.scheduled_for);
    const end = new Date(start + item.duration_minutes * 60_000).toISOString();
    const near = await allEvents(client, { start: new Date(start).toISOString(), end });
    for (const o of near.events) {
      const uid = o.occurrence_of ?? o.uid;
      if (!item.conflicts.includes(uid) || said.has(uid) || o.all_day) continue;
      said.set(uid, `${named(o, tz).replace(/ (\d\d:\d\d–)/, ` ${dayLabel(Date.parse(o.scheduled_for), tz)} $1`)} (${uid})`);
    }
  }
  if ([...wanted].some((u) => !said.has(u))) {
    const all = await allEvents(client, { expand: 'false' });
    for (const o of all.events)
      if (wanted.has(o.uid) && !said.has(o.uid)) said.set(o.uid, `“${o.title}” from ${startLabel(o, tz)}${o.rrule ? ', repeating' : ''} (${o.uid})`);
  }
  return said;
}

/** "overlaps A, B": the names of `conflicts`, a uid the daemon no longer knows as itself. */
export const overlapsLine = (conflicts: readonly string[], names: OverlapNames | undefined) =>
  `overlaps ${conflicts.map((u) => names?.get(u) ?? u).join(', ')}`;
