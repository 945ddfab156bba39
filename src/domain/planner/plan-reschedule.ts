import { addDays, type LocalDate } from '../../time/local-date.js';
import { atLocalTime, localDateOf, toZoned } from '../../time/zoned-time.js';
import type { Estimate } from './estimate.js';
import type { Item } from './interpret.js';
import { hhmm, localDay, localStamp } from './place.js';
import { type Ctx, clamp, MINUTE, type Outcome, quote } from './plan-context.js';
import { describeEvent, textOf } from './plan-output.js';
import { explicitWarnings } from './plan-single.js';
import { dayWindow } from './ranges.js';
import { contentWords, slug } from './text/title.js';
import { dayIn, resolveMinutes, windowBounds } from './times-of-day.js';
import type { CalendarItem, PlacementRule, ProposedAction } from './types.js';

/** Moving an event already on the calendar: by a shift, to a named time, or to a free slot. */
export function reschedule(ctx: Ctx, item: Item, ev: CalendarItem, matched: string[]): Outcome {
  const { zone, placer } = ctx;
  const uid = ev.occurrence_of ?? ev.uid;
  const evMinutes = Math.round((ev.end - ev.start) / MINUTE);
  const found = `Found ${quote(ev.title)} (${localStamp(ev.start, zone)}) ${matched.length ? `by ${matched.map(quote).join(', ')}` : 'by its time'}`;
  const window = dayWindow(ctx.input.profile, item, windowBounds(item));
  const minutes = item.duration?.minutes ?? evMinutes;
  const stated: Estimate = item.duration
    ? { booked: minutes, raw: minutes, stated: true, why: `${minutes} min as stated` }
    : { booked: minutes, raw: minutes, stated: false, why: `keeps its ${minutes} min` };
  const evLocal = toZoned(ev.start, zone);
  const evDate = localDateOf(ev.start, zone);
  const evMinutesOfDay = evLocal.hour * 60 + evLocal.minute;
  let start: number | undefined;
  let how = '';
  let rule: PlacementRule = 'explicit_time';

  if (item.shift) {
    rule = 'shift';
    if (item.shift.minutes !== undefined) {
      start = ev.start + item.shift.minutes * MINUTE;
      how = `${item.shift.minutes > 0 ? 'later' : 'earlier'} by ${Math.abs(item.shift.minutes)} min`;
    } else {
      const days = item.shift.days!;
      start = atLocalTime(addDays(evDate, days), evMinutesOfDay, zone).getTime();
      how = `${days > 0 ? 'later' : 'earlier'} by ${Math.abs(days)} day${Math.abs(days) === 1 ? '' : 's'}, same local time`;
    }
  } else if (item.time) {
    const m = resolveMinutes(item.time, item, window);
    const d = item.date
      ? item.date.weekday !== undefined && item.days
        ? (dayIn(item.days, item.date.weekday) ?? item.date.date)
        : item.date.date
      : item.days
        ? (dayIn(item.days) ?? evDate)
        : evDate;
    start = atLocalTime(d, m, zone).getTime();
    how = `to ${quote([item.date ? textOf(ctx, item.date) : '', textOf(ctx, item.time)].filter((s, i, a) => s && a.indexOf(s) === i).join(' '))}`;
  } else if (item.days?.label === 'next week' && !item.range) {
    rule = 'shift';
    start = atLocalTime(addDays(evDate, 7), evMinutesOfDay, zone).getTime();
    how = 'to the same day and time next week';
  } else if (item.range || item.days || item.date) {
    let from: LocalDate;
    let to: LocalDate;
    if (item.date) from = to = item.date.weekday !== undefined && item.days ? (dayIn(item.days, item.date.weekday) ?? item.date.date) : item.date.date;
    else if (item.days) ({ from, to } = item.days);
    else from = to = item.range?.today ? ctx.today : evDate;
    if (item.date && !item.range && !item.window) {
      start = atLocalTime(from, evMinutesOfDay, zone).getTime();
      how = `to ${quote(textOf(ctx, item.date))}, same local time`;
    } else {
      const slot = placer.findSlot({ from, to, weekdays: item.days?.weekdays, range: window.range, minutes, kind: 'reschedule_event', excludeUid: uid });
      if (!slot) return { skip: `No free ${minutes}-minute slot for ${quote(ev.title)} in ${window.label}.` };
      start = slot.start;
      rule = 'tag_range';
      const within = item.date ? ` on ${localDay(slot.start, zone)}` : item.days ? ` ${item.days.label}` : '';
      how = `to the first free ${minutes}-minute slot in ${window.label}${within}`;
      if (slot.passed.length) how += `, after ${slot.passed.map((c) => describeEvent(c, zone)).join(', ')}`;
      if (slot.blocked.length)
        how += `, avoiding blocked time ${slot.blocked.map((b) => `${b.label ? `${b.label} ` : ''}${hhmm(b.start, zone)}–${hhmm(b.end, zone)}`).join(', ')}`;
      if (slot.fallback) how += ' (the window named was full)';
    }
  } else {
    return { skip: `Say when to move ${quote(ev.title)} (e.g. "to Thursday 10am" or "back by an hour").` };
  }
  if (start <= ctx.now) return { skip: `Moving ${quote(ev.title)} to ${localStamp(start, zone)} would put it in the past.` };
  const end = start + minutes * MINUTE;
  const conflicts = placer.overlapping(start, end, uid);
  const warnings = explicitWarnings(ctx, 'reschedule_event', start, end, minutes);
  const reasoning = [
    `${found}; moved ${how} → ${localStamp(start, zone)} (${zone}); ${stated.why}.`,
    conflicts.length ? `Overlaps ${conflicts.map((c) => describeEvent(c, zone)).join(', ')}.` : '',
    ...warnings,
  ]
    .filter(Boolean)
    .join(' ');
  placer.place({ start, end, title: ev.title, kind: 'reschedule_event' });
  const confidence = clamp(0.6 + 0.35 * Math.min(1, matchScore(item, ev)) - ctx.penalty - (warnings.length ? 0.1 : 0));
  const action: ProposedAction = {
    kind: 'reschedule_event',
    task_id: ctx.input.taskId ?? ev.task_id ?? slug(ev.title),
    title: ev.title,
    scheduled_for: new Date(start).toISOString(),
    duration_minutes: minutes,
    estimate_minutes: minutes,
    event_uid: uid,
    reasoning,
    confidence,
  };
  return { results: [{ action, notes: { conflicts: conflicts.map((c) => c.occurrence_of ?? c.uid), warnings, local: localStamp(start, zone), rule } }] };
}

function matchScore(item: Item, ev: CalendarItem): number {
  const want = new Set(contentWords(ev.title));
  if (!want.size) return 0.5;
  const have = new Set(item.words);
  return [...want].filter((w) => have.has(w)).length / want.size;
}
