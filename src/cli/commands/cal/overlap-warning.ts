import type { ApiClient } from '../../../client/http.js';
import { dayLabel, startLabel } from '../../output/calendar-format.js';
import { named } from '../../output/overlaps.js';

/**
 * "overlaps “Standup” Tue 2031-01-07 09:00–10:30 (ev_…)": the events a new one overlaps, by title
 * and time in `tz`. Occurrences within the new event's first span are named at their own time;
 * an event overlapped only later (a new series) by where it starts.
 */
export async function overlapWarning(
  client: ApiClient,
  ev: { uid: string; scheduled_for: string; duration_minutes: number; conflicts: string[] },
  tz: string,
): Promise<string> {
  const start = Date.parse(ev.scheduled_for);
  const end = new Date(start + ev.duration_minutes * 60_000).toISOString();
  const near = await client.call('GET /calendar/events', { query: { start: new Date(start).toISOString(), end } });
  const said = new Map<string, string>();
  for (const o of near.events) {
    const uid = o.occurrence_of ?? o.uid;
    if (!ev.conflicts.includes(uid) || said.has(uid) || o.all_day) continue;
    said.set(uid, `${named(o, tz).replace(/ (\d\d:\d\d–)/, ` ${dayLabel(Date.parse(o.scheduled_for), tz)} $1`)} (${uid})`);
  }
  if (said.size < ev.conflicts.length) {
    const all = await client.call('GET /calendar/events', { query: { expand: 'false' } });
    for (const o of all.events)
      if (ev.conflicts.includes(o.uid) && !said.has(o.uid)) said.set(o.uid, `“${o.title}” from ${startLabel(o, tz)}${o.rrule ? ', repeating' : ''} (${o.uid})`);
  }
  const names = ev.conflicts.map((u) => said.get(u) ?? u);
  return `overlaps ${names.join(', ')}`;
}
