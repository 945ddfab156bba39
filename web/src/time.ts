import {
  addDays as addLocalDays,
  formatHHMM,
  formatLocalDate,
  type LocalDate,
  parseHHMM,
  parseLocalDate,
  startOfIsoWeek,
  WEEKDAYS,
  weekdayOf,
} from '../../src/time/local-date.js';
import { wallAt, instantOf as zonedInstant } from '../../src/time/zone-cache.js';

/**
 * Wall time in the profile's zone, on the project's own time layer (src/time/): the page shows
 * and takes times in the user's zone (GET /user/profile), whatever the browser's own zone is.
 * Dates here are the API's `YYYY-MM-DD` strings.
 */

const date = (s: string): LocalDate => parseLocalDate(s) ?? { year: 1970, month: 1, day: 1 };

/** The wall clock of an instant in a zone. */
export function wall(instant: number | string, zone: string): { date: string; time: string } {
  const w = wallAt(typeof instant === 'number' ? instant : Date.parse(instant), zone);
  return { date: formatLocalDate(w), time: formatHHMM(w.hour * 60 + w.minute) };
}

/** The instant (ms) of a wall time in a zone; in a gap of a DST change, moved forward by the gap. */
export function instantOf(day: string, time: string, zone: string): number {
  const minutes = parseHHMM(time) ?? 0;
  return zonedInstant({ ...date(day), hour: Math.floor(minutes / 60), minute: minutes % 60, second: 0 }, zone);
}

/** `YYYY-MM-DD` plus n days. */
export function addDays(day: string, n: number): string {
  return formatLocalDate(addLocalDays(date(day), n));
}

/** 0 for Monday … 6 for Sunday. */
export function weekday(day: string): number {
  return WEEKDAYS.indexOf(weekdayOf(date(day)));
}

/** The seven dates of the Monday-to-Sunday week holding `day`. */
export function weekOf(day: string): string[] {
  const monday = formatLocalDate(startOfIsoWeek(date(day)));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Mon 30 Nov`. */
export function dayLabel(day: string): string {
  const d = date(day);
  return `${DAY_NAMES[weekday(day)]} ${d.day} ${MONTHS[d.month - 1]}`;
}

/** `Mon 30 Nov 07:00` in the zone. */
export function whenLabel(iso: string, zone: string): string {
  const w = wall(iso, zone);
  return `${dayLabel(w.date)} ${w.time}`;
}

/** The value of an `<input type="datetime-local">` showing the instant in the zone. */
export function toInput(iso: string, zone: string): string {
  const w = wall(iso, zone);
  return `${w.date}T${w.time}`;
}

/** An `<input type="datetime-local">` value read in the zone, as an ISO instant (UTC). */
export function fromInput(value: string, zone: string): string {
  const [day, time] = value.split('T') as [string, string];
  return new Date(instantOf(day, time.slice(0, 5), zone)).toISOString();
}
