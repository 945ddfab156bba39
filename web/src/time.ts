/**
 * Wall time in the profile's zone, with Intl only: the page shows and takes times in the
 * user's zone (GET /user/profile), whatever the browser's own zone is.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall clock of an instant in a zone. */
export function wall(instant: number | string, zone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

function offsetMs(instant: number, zone: string): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant (ms) of a wall time in a zone; in a gap of a DST change, the later side. */
export function instantOf(date: string, time: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  const first = guess - offsetMs(guess, zone);
  return guess - offsetMs(first, zone);
}

/** `YYYY-MM-DD` plus n days. */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** 0 for Monday … 6 for Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** The seven dates of the Monday-to-Sunday week holding `date`. */
export function weekOf(date: string): string[] {
  const monday = addDays(date, -weekday(date));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Mon 30 Nov`. */
export function dayLabel(date: string): string {
  const [, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${DAY_NAMES[weekday(date)]} ${d} ${MONTHS[m - 1]}`;
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
  const [date, time] = value.split('T') as [string, string];
  return new Date(instantOf(date, time.slice(0, 5), zone)).toISOString();
}
