// A person's free time of one day: asked of the daemon, shown in words; `cal free` and chat's
// "when am I free" both answer with it.
import type { ChalkInstance } from 'chalk';
import type { ApiClient } from '../../client/http.js';
import type { EndpointResponse } from '../../contracts/endpoints.js';
import { wallAt } from '../../time/zone-cache.js';
import { parseWhen } from '../input/when.js';
import { clock, dayLabel } from '../output/calendar-format.js';

export type FreeTime = EndpointResponse<'GET /calendar/free'>;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local date (YYYY-MM-DD in `zone`) a day given in words or ISO names. */
export function dayOf(text: string, zone: string, now: Date, flag: string): string {
  const v = parseWhen(text, zone, now, flag);
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const w = wallAt(Date.parse(v), zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** Ask the daemon for the free time of one day. */
export function fetchFree(client: ApiClient, date: string, minutes: number, tag?: string): Promise<FreeTime> {
  return client.call('GET /calendar/free', { query: { date, duration_minutes: minutes, ...(tag ? { tag } : {}) } });
}

/** "Free on Tue 2031-01-07 (Europe/Berlin), 1h or more:" and one line per gap. */
export function freeText(r: FreeTime, c: ChalkInstance): string {
  const tz = r.timezone;
  const day = dayLabel(Date.parse(`${r.date}T12:00:00Z`), 'UTC');
  const span = (s: { start: string; end: string }) => `${clock(Date.parse(s.start), tz)}–${clock(Date.parse(s.end), tz)}`;
  const hours = (m: number) => (m % 60 ? (m > 60 ? `${Math.floor(m / 60)}h${pad(m % 60)}` : `${m}m`) : `${m / 60}h`);
  const lines = [`Free on ${day} (${tz}), ${hours(r.duration_minutes)} or more, within ${r.day.map(span).join(', ') || 'no hours'}:`];
  if (!r.slots.length) lines.push(c.dim('  no free time that long'));
  for (const s of r.slots) lines.push(`  ${c.cyan(span(s))}  ${c.dim(hours(s.minutes))}`);
  if (r.all_day.length) lines.push(c.dim(`  all day: ${r.all_day.join(', ')} (takes no time)`));
  for (const b of r.blocked) lines.push(c.dim(`  blocked ${span(b)}${b.label ? ` (${b.label})` : ''}`));
  return lines.join('\n');
}
