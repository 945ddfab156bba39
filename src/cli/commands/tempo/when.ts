import type { ParsedComponents } from 'chrono-node';
import * as chrono from 'chrono-node';
import { addDays, type LocalDate } from '../../../time/local-date.js';
import { fromZoned, offsetMinutes } from '../../../time/zoned-time.js';
import { usage } from '../../command-runtime.js';

export interface OneOff {
  start: string;
  end: string;
}

const dateOf = (c: ParsedComponents): LocalDate => ({ year: c.get('year')!, month: c.get('month')!, day: c.get('day')! });

/** The instant a parsed moment names: its own offset when written, else the wall time in `zone`. */
function instant(c: ParsedComponents, zone: string, fallbackHour: number): Date {
  if (c.isCertain('timezoneOffset')) return c.date();
  const hour = c.isCertain('hour') ? c.get('hour')! : fallbackHour;
  return fromZoned({ ...dateOf(c), hour, minute: c.isCertain('hour') ? (c.get('minute') ?? 0) : 0 }, zone);
}

function parseOne(text: string, zone: string, now: Date) {
  // chrono reads implied parts ("tomorrow") in a fixed offset: the zone's offset right now.
  const r = chrono.parse(text, { instant: now, timezone: offsetMinutes(now, zone) }, { forwardDate: true })[0];
  if (!r) throw usage(`Cannot read a date or time in "${text}": try "tomorrow 14:00-16:00", "2031-06-02 12:00 to 13:00" or "2031-06-02".`);
  return r;
}

/**
 * A one-off stretch of time from words, in the user's zone: `tomorrow 14:00-16:00`,
 * `June 2 2031 12:00 to 13:00`, `2031-06-02T12:00Z/2031-06-02T13:00Z`, or a date alone (the whole
 * day). Without an end, `forMinutes` gives the length.
 */
export function parseOneOff(text: string, zone: string, now: Date, forMinutes?: number): OneOff {
  const halves = text.split(/\s*\/\s*/);
  const first = parseOne(halves[0]!, zone, now);
  const endComp = halves.length === 2 ? parseOne(halves[1]!, zone, now).start : first.end;
  const start = instant(first.start, zone, 0);
  let end: Date;
  if (endComp) {
    // An end given as a date alone ("June 2 - June 4") includes that whole day.
    end =
      endComp.isCertain('hour') || endComp.isCertain('timezoneOffset')
        ? instant(endComp, zone, 0)
        : fromZoned({ ...addDays(dateOf(endComp), 1), hour: 0, minute: 0 }, zone);
  } else if (forMinutes !== undefined) {
    end = new Date(start.getTime() + forMinutes * 60_000);
  } else if (!first.start.isCertain('hour')) {
    end = fromZoned({ ...addDays(dateOf(first.start), 1), hour: 0, minute: 0 }, zone);
  } else {
    throw usage(`"${text}" has no end: write a range ("tomorrow 14:00-16:00") or add --for 2h.`);
  }
  return { start: start.toISOString(), end: end.toISOString() };
}
