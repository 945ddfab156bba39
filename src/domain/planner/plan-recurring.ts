import { addDays, daysBetween, formatHHMM, formatLocalDate, type LocalDate, startOfIsoWeek } from '../../time/local-date.js';
import { describeRrule, parseRepeat } from '../../time/repeat.js';
import { atLocalTime, toZoned } from '../../time/zoned-time.js';
import { estimateMinutes } from './estimate.js';
import type { Item } from './interpret.js';
import { eachDay, hhmm, localStamp } from './place.js';
import { type Ctx, clamp, MINUTE, type Outcome, quote, type Result, weekdayIdx } from './plan-context.js';
import { describeEvent, result } from './plan-output.js';
import { type DayWindow, dayWindow } from './ranges.js';
import { resolveMinutes, windowBounds } from './times-of-day.js';
import type { CalendarItem } from './types.js';

/** A repetition with no end named runs this long. */
const DEFAULT_RECURRENCE_DAYS = 28;
const MAX_OCCURRENCES = 40;

export function recurring(ctx: Ctx, item: Item): Outcome {
  const { zone, now, today, placer } = ctx;
  const rec = item.recurrence!;
  const window = dayWindow(ctx.input.profile, item, windowBounds(item));
  const tag = item.tag?.tag ?? window.tag ?? item.duration?.tag;
  const kind = item.kind === 'reflect' ? 'reflect' : 'add_event';
  const bound = item.bound ?? item.days;
  let start = item.startDate?.date ?? item.date?.date ?? bound?.from ?? today;
  if (daysBetween(today, start) < 0) start = today;
  // A series with no end named is open; its first weeks are what the slot search and the other requests see.
  const end = bound?.to ?? addDays(start, DEFAULT_RECURRENCE_DAYS - 1);
  const weekdays = rec.weekdays ?? (rec.every === 'week' ? [weekdayIdx(item.date?.date ?? start)] : undefined);
  const minutes = item.time ? resolveMinutes(item.time, item, window) : undefined;
  const firstWeek = startOfIsoWeek(start);
  const occurrences: LocalDate[] = [];
  for (const d of eachDay(start, end)) {
    if (weekdays && !weekdays.includes(weekdayIdx(d))) continue;
    if (rec.every === 'week' && rec.interval > 1 && Math.floor(daysBetween(firstWeek, startOfIsoWeek(d)) / 7) % rec.interval !== 0) continue;
    if (rec.every === 'day' && rec.interval > 1 && daysBetween(start, d) % rec.interval !== 0) continue;
    if (minutes !== undefined && atLocalTime(d, minutes, zone).getTime() <= now) continue;
    occurrences.push(d);
    if (rec.count !== undefined && occurrences.length >= rec.count) break;
    if (occurrences.length >= MAX_OCCURRENCES) break;
  }
  const boundText = bound ? ` ${bound.label}` : rec.count ? '' : ` for the next ${DEFAULT_RECURRENCE_DAYS / 7} weeks (no end named)`;
  if (kind === 'add_event') return recurringEvent(ctx, item, { occurrences, window, tag, minutes, until: bound?.to });
  const est = estimateMinutes(ctx.input.profile, item, { tag, startMinutes: minutes });
  const results: Result[] = [];
  occurrences.forEach((d, i) => {
    let at: number;
    let how: string;
    let conflicts: CalendarItem[] = [];
    if (minutes !== undefined) {
      at = atLocalTime(d, minutes, zone).getTime();
      conflicts = placer.overlapping(at, at + est.booked * MINUTE);
      how = `at ${hhmm(at, zone)}`;
    } else {
      const slot = placer.findSlot({ from: d, to: d, range: window.range, minutes: est.booked, kind, fallback: false });
      if (!slot) return;
      at = slot.start;
      how = `first free slot in ${window.label} (${hhmm(at, zone)})`;
    }
    const reasoning = `Recurrence ${rec.label}${boundText}, ${how}: occurrence ${i + 1} of ${occurrences.length}, ${localStamp(at, zone)}; ${est.why}.${conflicts.length ? ` Overlaps ${conflicts.map((c) => describeEvent(c, zone)).join(', ')}; kept because you named the time.` : ''}`;
    placer.place({ start: at, end: at + est.booked * MINUTE, title: item.title, kind });
    results.push(
      result(ctx, item, kind, at, est, tag, reasoning, clamp(0.85 - ctx.penalty), {
        conflicts: conflicts.map((c) => c.occurrence_of ?? c.uid),
        warnings: [],
        rule: 'recurrence',
      }),
    );
  });
  if (!results.length) return { skip: `No occurrence of ${rec.label}${boundText} is left for ${quote(item.title)}.` };
  return { results };
}

/**
 * A repeated event is ONE recurring event: an RRULE read from the repetition's words by the
 * shared grammar (src/time/repeat.ts), starting at the first occurrence; its time is the named
 * one, else the first free slot in the window on the first day that has one.
 */
function recurringEvent(
  ctx: Ctx,
  item: Item,
  o: { occurrences: LocalDate[]; window: DayWindow; tag: string | undefined; minutes: number | undefined; until: LocalDate | undefined },
): Outcome {
  const { zone, placer } = ctx;
  const rec = item.recurrence!;
  const est = estimateMinutes(ctx.input.profile, item, { tag: o.tag, startMinutes: o.minutes });
  let minutes = o.minutes;
  let first: LocalDate | undefined;
  let how: string;
  if (minutes !== undefined) {
    first = o.occurrences[0];
    how = `at ${formatHHMM(minutes)} as named`;
  } else {
    for (const d of o.occurrences) {
      const slot = placer.findSlot({ from: d, to: d, range: o.window.range, minutes: est.booked, kind: 'add_event', fallback: false });
      if (!slot) continue;
      first = d;
      const z = toZoned(slot.start, zone);
      minutes = z.hour * 60 + z.minute;
      break;
    }
    how = `at ${minutes === undefined ? '' : formatHHMM(minutes)}, the first free ${est.booked}-minute slot in ${o.window.label} on the first day`;
  }
  const words = `${rec.label.toLowerCase()}${o.until ? ` until ${formatLocalDate(o.until)}` : ''}${rec.count !== undefined ? `, ${rec.count} times` : ''}`;
  if (!first || minutes === undefined) return { skip: `No occurrence of ${words} is left for ${quote(item.title)}.` };
  let rrule: string;
  try {
    rrule = parseRepeat(words, zone);
  } catch {
    return { skip: `I could not turn ${quote(words)} into a repeating rule for ${quote(item.title)}.` };
  }
  const start = atLocalTime(first, minutes, zone).getTime();
  // Every occurrence in the first weeks is busy time for the other requests of the prompt.
  const conflicts = new Set<string>();
  for (const d of o.occurrences) {
    const at = atLocalTime(d, minutes, zone).getTime();
    if (at < start) continue;
    for (const c of placer.overlapping(at, at + est.booked * MINUTE)) conflicts.add(c.occurrence_of ?? c.uid);
    placer.place({ start: at, end: at + est.booked * MINUTE, title: item.title, kind: 'add_event' });
  }
  const reasoning = [
    `Recurrence ${quote(rec.label)} → one repeating event, ${describeRrule(rrule, zone)} (${rrule}), ${how}; first ${localStamp(start, zone)} (${zone}); ${est.why}.`,
    conflicts.size ? `Some occurrences overlap ${[...conflicts].join(', ')}; kept because you named the repetition.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const r = result(ctx, item, 'add_event', start, est, o.tag, reasoning, clamp(0.85 - ctx.penalty), {
    conflicts: [...conflicts],
    warnings: [],
    rule: 'recurrence',
  });
  r.action.rrule = rrule;
  return { results: [r] };
}
