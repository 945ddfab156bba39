import type { ApiClient } from '../../../client/http.js';
import { overlapNames, overlapsLine } from '../../flows/overlap-names.js';

/** "overlaps “Standup” Tue 2031-01-07 09:00–10:30 (ev_…)": the events a new one overlaps, by title and time in `tz`. */
export async function overlapWarning(
  client: ApiClient,
  ev: { uid: string; scheduled_for: string; duration_minutes: number; conflicts: string[] },
  tz: string,
): Promise<string> {
  return overlapsLine(ev.conflicts, await overlapNames(client, [ev], tz));
}
