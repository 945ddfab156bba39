const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * `tue 2031-01-07 15:00` in the user's time zone (the zone the planner reasons in), so a plan's
 * times read the same as its reasoning whatever zone the terminal is in.
 */
export function when(iso: string, tz: string): string {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p.weekday!.toLowerCase()} ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** `2031-02-03T09:00:00.000Z` → `2031-02-03 09:00` (UTC), for tables. */
export const shortTime = (iso: string) => iso.replace('T', ' ').slice(0, 16);

/** `2031-02-03 10:00`: an instant as the wall time of `tz`, for tables (the zone goes in the header). */
export function localStamp(iso: string, tz: string): string {
  return when(iso, tz).slice(4);
}
