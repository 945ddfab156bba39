import { addDays, compareDates } from '../time/local-date.js';
import { atLocalTime, localDateOf, startOfLocalDay } from '../time/zoned-time.js';

export interface Interval {
  start: number;
  end: number;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The parts of `window` a person may offer: each day's allowed hours (`dayFrom`–`dayTo` local time
 * in `zone`, the whole day when not given), less every busy interval, keeping gaps of at least
 * `minMinutes`. Busy intervals may overlap and come in any order.
 */
export function freeSlots(window: Interval, busy: Interval[], o: { zone: string; minMinutes: number; dayFrom?: string; dayTo?: string }): Interval[] {
  const allowed: Interval[] = [];
  if (o.dayFrom === undefined && o.dayTo === undefined) allowed.push(window);
  else {
    const last = localDateOf(window.end, o.zone);
    for (let d = localDateOf(window.start, o.zone); compareDates(d, last) <= 0; d = addDays(d, 1)) {
      const dayStart = o.dayFrom === undefined ? startOfLocalDay(d, o.zone) : atLocalTime(d, minutesOf(o.dayFrom), o.zone);
      const dayEnd = o.dayTo === undefined ? startOfLocalDay(addDays(d, 1), o.zone) : atLocalTime(d, minutesOf(o.dayTo), o.zone);
      const s = Math.max(window.start, dayStart.getTime());
      const e = Math.min(window.end, dayEnd.getTime());
      if (e > s) allowed.push({ start: s, end: e });
    }
  }
  const sorted = busy.filter((b) => b.end > window.start && b.start < window.end).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  const minMs = o.minMinutes * 60_000;
  for (const a of allowed) {
    let cursor = a.start;
    for (const b of sorted) {
      if (b.end <= cursor) continue;
      if (b.start >= a.end) break;
      if (b.start - cursor >= minMs) out.push({ start: cursor, end: b.start });
      cursor = Math.max(cursor, b.end);
    }
    if (a.end - cursor >= minMs) out.push({ start: cursor, end: a.end });
  }
  return out;
}
