import type { LocalDate } from '../../time/local-date.js';
import type { DaysFeature, TimeFeature } from './extract/features.js';
import type { Item } from './interpret.js';
import { eachDay } from './place.js';
import { weekdayIdx } from './plan-context.js';
import { type DayWindow, inRange } from './ranges.js';
import { EVENING_HINT_RE } from './text/words.js';

/** Times of day as people mean them: a bare hour by the part of the day, the windows a request names. */

/** A bare hour (no am/pm) read the way people mean it: by the part of the day named, the kind of task, else 7–11 morning, 12 noon, 1–6 afternoon. */
export function resolveMinutes(t: Pick<TimeFeature, 'minutes' | 'certain'>, item: Item, window?: DayWindow): number {
  if (t.certain) return t.minutes;
  const h = Math.floor(t.minutes / 60);
  const m = t.minutes % 60;
  if (h === 0 || h > 12) return t.minutes;
  const am = h === 12 ? m : t.minutes;
  const pm = h === 12 ? t.minutes : t.minutes + 720;
  if (window?.named) {
    const inAm = inRange(am, window.range);
    const inPm = inRange(pm, window.range);
    if (inAm !== inPm) return inAm ? am : pm;
    if (!inAm) return distanceTo(am, window.range) <= distanceTo(pm, window.range) ? am : pm;
  }
  if (EVENING_HINT_RE.test(item.title) && h >= 5 && h < 12) return pm;
  return h >= 1 && h <= 6 ? pm : h === 12 ? t.minutes : am;
}

/** Minutes from a wall time to the nearest edge of a range (0 inside). */
function distanceTo(minutes: number, r: DayWindow['range']): number {
  if (inRange(minutes, r)) return 0;
  const edge = (hhmm: string) => {
    const [hh, mm] = hhmm.split(':').map(Number);
    const e = hh! * 60 + mm!;
    const d = Math.abs(e - minutes);
    return Math.min(d, 1440 - d);
  };
  return Math.min(edge(r.start), edge(r.end));
}

export function windowBounds(item: Item): { after?: number; before?: number } | undefined {
  const w = item.window;
  if (!w) return undefined;
  const minutes = resolveMinutes(w, item);
  if (w.bound === 'after') return { after: minutes };
  if (w.bound === 'before') return { before: minutes };
  if (w.endMinutes !== undefined) {
    let before = resolveMinutes({ minutes: w.endMinutes, certain: w.endCertain ?? false }, item);
    if (before <= minutes && before < 720) before += 720;
    return { after: minutes, before };
  }
  return { after: minutes };
}

/** The first day of a window of days that is one of `weekday` (or any). */
export function dayIn(days: DaysFeature, weekday?: number): LocalDate | undefined {
  for (const d of eachDay(days.from, days.to)) if (weekday === undefined || weekdayIdx(d) === weekday) return d;
  return undefined;
}
