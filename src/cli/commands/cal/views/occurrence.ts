import type { ApiClient } from '../../../../client/http.js';
import type { EndpointResponse } from '../../../../contracts/endpoints.js';
import { AppError } from '../../../../errors.js';
import { instantOf, wallAt } from '../../../../time/zone-cache.js';
import { usage } from '../../../command-runtime.js';
import { allEvents } from '../../../input/all-events.js';
import { ISO_DATE, parseWhen } from '../../../input/when.js';
import { clock, dayLabel, type EventView } from '../../../output/calendar-format.js';

type Item = EndpointResponse<'GET /calendar/events'>['events'][number];

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?$/;
const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** A day and maybe a time of day, as a person reads them off `cal list`. */
interface Wanted {
  date: string;
  time?: string;
}

function wanted(text: string, zone: string): Wanted {
  const t = text.trim();
  const m = LOCAL.exec(t);
  if (m) {
    if (m[4] !== undefined && (+m[4] > 23 || +m[5]! > 59))
      throw usage(`--occurrence: "${text}" is not a time of day; give the date and time \`cal list\` shows, e.g. "2031-02-17 09:00".`);
    return { date: `${m[1]}-${m[2]}-${m[3]}`, ...(m[4] !== undefined ? { time: `${pad(+m[4])}:${m[5]}` } : {}) };
  }
  const at = parseWhen(t, zone, new Date(), '--occurrence');
  if (ISO_DATE.test(at)) return { date: at };
  const w = wallAt(Date.parse(at), zone);
  return { date: `${w.year}-${pad(w.month)}-${pad(w.day)}`, time: `${pad(w.hour)}:${pad(w.minute)}` };
}

/** The local day and time at which `cal list` shows an occurrence (all-day ones by their own zone's date). */
function shown(e: Item, zone: string): Wanted {
  const start = Date.parse(e.scheduled_for);
  const w = wallAt(start, e.all_day ? e.timezone : zone);
  const date = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  return e.all_day ? { date } : { date, time: clock(start, zone) };
}

/**
 * The recurrence id of the occurrence `text` names: an ISO instant with an offset is taken as
 * it is; otherwise it is the local date and time that `cal list` shows ("2031-02-17 09:00",
 * "2031-02-17", "monday 9:00") in the user's zone, looked up among the series' occurrences that
 * day, so a moved occurrence is found where it now is.
 */
export async function resolveOccurrence(client: ApiClient, uid: string, text: string, zone: string): Promise<string> {
  if (ISO_INSTANT.test(text.trim()) && !Number.isNaN(Date.parse(text))) return new Date(text.trim()).toISOString();
  const want = wanted(text, zone);
  const [y, mo, d] = want.date.split('-').map(Number) as [number, number, number];
  const midnight = instantOf({ year: y, month: mo, day: d, hour: 0, minute: 0, second: 0 }, zone);
  // A day either side: an all-day occurrence is dated in its own zone, not the user's.
  const { events } = await allEvents(client, { start: new Date(midnight - DAY).toISOString(), end: new Date(midnight + 2 * DAY).toISOString() });
  const mine = events.filter((e) => e.occurrence_of === uid && e.recurrence_id);
  const sameDay = mine.filter((e) => shown(e, zone).date === want.date);
  const hits = sameDay.filter((e) => !want.time || e.all_day || shown(e, zone).time === want.time);
  if (hits.length === 1) return hits[0]!.recurrence_id!;
  const label = (e: EventView) =>
    e.all_day
      ? `${dayLabel(Date.parse(e.scheduled_for), e.timezone)} (all day)`
      : `${dayLabel(Date.parse(e.scheduled_for), zone)} ${clock(Date.parse(e.scheduled_for), zone)}`;
  if (hits.length > 1)
    throw usage(
      `--occurrence: ${uid} has ${hits.length} occurrences on ${want.date}: ${hits.map(label).join(', ')}. Give the time too, e.g. "${want.date} ${shown(hits[0]!, zone).time}".`,
    );
  const those = sameDay.length ? ` That day it has: ${sameDay.map(label).join(', ')}.` : '';
  throw new AppError(
    404,
    'not_found',
    `--occurrence: ${uid} has no occurrence at ${want.date}${want.time ? ` ${want.time}` : ''} (${zone}).${those} Give the date and time \`kairos cal list\` shows, e.g. "2031-02-17 09:00".`,
  );
}

/** The occurrence `rid` of a series as it now is (its override applied), for the answer of an edit. */
export function occurrenceOf(
  series: EventView & { overrides?: { recurrence_id: string; scheduled_for: string; duration_minutes: number; title?: string; status?: string }[] },
  rid: string,
): EventView {
  const o = series.overrides?.find((x) => Date.parse(x.recurrence_id) === Date.parse(rid));
  return {
    ...series,
    scheduled_for: o?.scheduled_for ?? rid,
    duration_minutes: o?.duration_minutes ?? series.duration_minutes,
    ...(o?.title !== undefined ? { title: o.title } : {}),
    ...(o?.status !== undefined ? { status: o.status as EventView['status'] } : {}),
    occurrence_of: series.uid,
    recurrence_id: rid,
  };
}
