import { addDays, daysBetween, formatLocalDate, type LocalDate } from '../../time/local-date.js';
import { atLocalTime, localDateOf } from '../../time/zoned-time.js';
import { type Estimate, estimateMinutes } from './estimate.js';
import type { Item } from './interpret.js';
import { eachDay, hhmm, localDay, localStamp, type SlotResult } from './place.js';
import { type Ctx, clamp, MINUTE, type Outcome, quote, weekdayIdx } from './plan-context.js';
import { describeEvent, result, taskOf, textOf } from './plan-output.js';
import { type DayWindow, dayWindow } from './ranges.js';
import { avoidedBy } from './rejections.js';
import { slug } from './text/title.js';
import { dayIn, resolveMinutes, windowBounds } from './times-of-day.js';
import type { CalendarItem, PlacementRule, ProposedAction } from './types.js';

/** One request with a single time: all day, an exact start, or the first free slot in a window. */
export function single(ctx: Ctx, item: Item): Outcome {
  const { zone, now, placer } = ctx;
  const window = dayWindow(ctx.input.profile, item, windowBounds(item));
  const tag = item.tag?.tag ?? window.tag ?? item.duration?.tag;
  const kind = item.kind === 'reflect' ? 'reflect' : 'add_event';

  // "all day": the whole local day, from midnight.
  if (item.allDay && !item.time && !item.relative) {
    const d = item.date?.date ?? (item.range?.today ? ctx.today : item.days ? item.days.from : addDays(ctx.today, 1));
    const start = atLocalTime(d, 0, zone).getTime();
    const end = atLocalTime(addDays(d, 1), 0, zone).getTime();
    const minutes = Math.round((end - start) / MINUTE);
    const est: Estimate = { booked: minutes, raw: minutes, stated: true, why: `all day (${minutes} min)` };
    const conflicts = placer.overlapping(start, end);
    placer.place({ start, end, title: item.title, kind });
    const reasoning = `Explicit day, all day: ${localDay(start, zone)} (${zone}).${conflicts.length ? ` Overlaps ${conflicts.map((c) => describeEvent(c, zone)).join(', ')}.` : ''}`;
    return {
      results: [
        result(ctx, item, kind, start, est, tag, reasoning, clamp(0.85 - ctx.penalty), {
          conflicts: conflicts.map((c) => c.occurrence_of ?? c.uid),
          warnings: [],
          rule: 'explicit_time',
        }),
      ],
    };
  }

  // An exact start: a relative time or a time of day.
  if (item.relative || item.time) {
    let start: number;
    let phrase: string;
    let inferred = false;
    let minutes: number | undefined;
    if (item.relative) {
      start = item.relative.minutes === 0 ? Math.ceil(now / (5 * MINUTE)) * 5 * MINUTE : now + item.relative.minutes * MINUTE;
      phrase = textOf(ctx, item.relative);
    } else {
      minutes = resolveMinutes(item.time!, item, window);
      const chosen = explicitDate(ctx, item, minutes);
      if (!chosen) return { skip: `No day in ${item.days?.label ?? 'the window'} is left for ${quote(item.text)}.` };
      inferred = chosen.inferred;
      start = atLocalTime(chosen.date, minutes, zone).getTime();
      phrase = [item.date && !item.dateInherited ? textOf(ctx, item.date) : '', textOf(ctx, item.time!)].filter((s, i, a) => s && a.indexOf(s) === i).join(' ');
      if (item.dateInherited) phrase += ` (the day named before: ${localDay(start, zone)})`;
    }
    if (start <= now - MINUTE && !inferred) return { skip: `${localStamp(start, zone)} (${quote(item.text)}) is in the past.` };
    const est = estimateMinutes(ctx.input.profile, item, { tag, startMinutes: minutes });
    const end = start + est.booked * MINUTE;
    const conflicts = placer.overlapping(start, end);
    const warnings = explicitWarnings(ctx, kind, start, end, est.booked);
    const rejected = avoidedBy(avoidancesFor(ctx, item), start, end, zone);
    if (rejected) warnings.push(`You rejected a plan for this before: ${quote(rejected.by.reason)}; kept because you named the time.`);
    const parts = [`Explicit time: ${quote(phrase)} → ${localStamp(start, zone)} (${zone}); ${est.why}.`];
    if (conflicts.length) parts.push(`Overlaps ${conflicts.map((c) => describeEvent(c, zone)).join(', ')}; kept because you named the time.`);
    if (warnings.length) parts.push(warnings.join(' '));
    placer.place({ start, end, title: item.title, kind });
    const confidence = clamp(
      (item.relative ? 0.85 : item.dateInherited ? 0.8 : inferred && !item.date ? 0.8 : 0.92) -
        ctx.penalty -
        (conflicts.length ? 0.05 : 0) -
        (warnings.length ? 0.1 : 0),
    );
    return {
      results: [
        result(ctx, item, kind, start, est, tag, parts.join(' '), confidence, {
          conflicts: conflicts.map((c) => c.occurrence_of ?? c.uid),
          warnings,
          rule: item.relative ? 'relative_time' : 'explicit_time',
        }),
      ],
    };
  }

  // No time of day: the earliest free slot in the right window ("block off Friday afternoon": all of it).
  const est = item.wholeRange ? wholeRange(window) : estimateMinutes(ctx.input.profile, item, { tag });
  let from: LocalDate | undefined;
  let to: LocalDate | undefined;
  let weekdays: number[] | undefined;
  let where = '';
  if (item.date) {
    let d = item.date.date;
    if (item.date.weekday !== undefined && item.days) d = dayIn(item.days, item.date.weekday) ?? d;
    from = to = d;
    where = ` on ${localDay(atLocalTime(d, 720, zone).getTime(), zone)}`;
  } else if (item.range?.today) {
    from = to = ctx.today;
    where = ' today';
  } else if (item.days) {
    ({ from, to } = item.days);
    weekdays = item.days.weekdays;
    where = ` ${item.days.label}`;
  } else if (item.kind === 'reflect' || window.named) {
    // "reflect on the sprint" / "gym @morning": the next such window, today's if it is not over.
    from = ctx.today;
    to = addDays(ctx.today, 13);
    where = '';
  }
  if (to && daysBetween(ctx.today, to) < 0) return { skip: `${quote(item.text)} asks for a day that is past.` };
  const avoid = avoidancesFor(ctx, item);
  const ruledOut = new Set<string>();
  const slot = placer.findSlot({
    from,
    to,
    weekdays,
    range: window.range,
    minutes: est.booked,
    kind,
    avoid: (s, e) => {
      const hit = avoidedBy(avoid, s, e, zone);
      if (hit) ruledOut.add(hit.by.reason);
      return hit?.next;
    },
  });
  if (!slot) return { skip: `No free ${est.booked}-minute slot${where} in ${window.label} for ${quote(item.title)}.` };
  const rule: PlacementRule = window.named ? 'tag_range' : 'free_slot';
  const reasoning =
    slotReasoning(ctx, window, where, est, slot) + (ruledOut.size ? ` Avoided what you said when rejecting: ${[...ruledOut].map(quote).join(', ')}.` : '');
  placer.place({ start: slot.start, end: slot.end, title: item.title, kind });
  const confidence = clamp((slot.fallback ? 0.4 : window.named || item.date || item.days ? 0.8 : 0.6) - ctx.penalty);
  return {
    results: [
      result(ctx, item, kind, slot.start, est, tag, reasoning, confidence, {
        conflicts: [],
        warnings: slot.fallback ? ['the named window is full'] : [],
        rule,
      }),
    ],
  };
}

/** How near an event with the same title must be to count as the one being planned again. */
const DUPLICATE_WINDOW = 3 * 60 * MINUTE;

/** An event already on the calendar that `action` would repeat: the same title, the same local day, a nearby time. */
export function duplicateOf(ctx: Ctx, action: ProposedAction): CalendarItem | undefined {
  const start = Date.parse(action.scheduled_for);
  const key = slug(action.title);
  const day = formatLocalDate(localDateOf(start, ctx.zone));
  return ctx.input.calendar.find(
    (c) => slug(c.title) === key && Math.abs(c.start - start) <= DUPLICATE_WINDOW && formatLocalDate(localDateOf(c.start, ctx.zone)) === day,
  );
}

/** What earlier rejections of this item's task ruled out. */
function avoidancesFor(ctx: Ctx, item: Item) {
  const task = taskOf(ctx, item);
  return (ctx.input.avoid ?? []).filter((a) => a.task_id === task);
}

function wholeRange(window: DayWindow): Estimate {
  const [sh, sm] = window.range.start.split(':').map(Number);
  const [eh, em] = window.range.end.split(':').map(Number);
  let minutes = eh! * 60 + em! - (sh! * 60 + sm!);
  if (minutes <= 0) minutes += 1440;
  return { booked: minutes, raw: minutes, stated: true, why: `the whole of ${window.label} (${minutes} min)` };
}

/** The day an explicit time of day falls on. `inferred`: no day was named, so a past time moves to tomorrow. */
function explicitDate(ctx: Ctx, item: Item, minutes: number): { date: LocalDate; inferred: boolean } | undefined {
  const { zone, now, today } = ctx;
  const future = (d: LocalDate) => atLocalTime(d, minutes, zone).getTime() > now;
  if (item.date) {
    if (item.date.weekday !== undefined && item.days) {
      const d = dayIn(item.days, item.date.weekday);
      if (d) return { date: d, inferred: false };
    }
    return { date: item.date.date, inferred: false };
  }
  if (item.range?.today) return { date: today, inferred: false };
  if (item.days) {
    for (const d of eachDay(item.days.from, item.days.to)) {
      if (item.days.weekdays && !item.days.weekdays.includes(weekdayIdx(d))) continue;
      if (future(d)) return { date: d, inferred: false };
    }
    return undefined;
  }
  return future(today) ? { date: today, inferred: true } : { date: addDays(today, 1), inferred: true };
}

/** Blocked time or a used-up budget at a time the person named: kept, but the plan will be refused. */
export function explicitWarnings(ctx: Ctx, kind: ProposedAction['kind'], start: number, end: number, minutes: number): string[] {
  const out: string[] = [];
  for (const b of ctx.placer.blockedAt(start, end)) {
    // Blocked time binds agents; the person's own plan only hears about it.
    const outcome = ctx.input.agentId ? 'the plan will be refused unless you change the time or unblock it' : 'kept because you named the time';
    out.push(`It falls in blocked time${b.block.label ? ` (${b.block.label})` : ''} ${hhmm(b.start, ctx.zone)}–${hhmm(b.end, ctx.zone)}: ${outcome}.`);
  }
  const budget = ctx.placer.budgetProblem(kind, start, minutes);
  if (budget) out.push(`Over budget: ${budget}.`);
  return out;
}

function slotReasoning(ctx: Ctx, window: DayWindow, where: string, est: Estimate, slot: SlotResult): string {
  const { zone } = ctx;
  const head = window.named ? `${window.tag ? 'Tag range' : 'Range'} ${window.label}${where}` : `No time named: searched ${window.label}${where}`;
  const parts = [`${head}: first free ${est.booked}-minute slot at ${localStamp(slot.start, zone)}; ${est.why}.`];
  if (slot.passed.length) parts.push(`After the named conflicts ${slot.passed.map((c) => describeEvent(c, zone)).join(', ')}.`);
  if (slot.blocked.length)
    parts.push(`Blocked time avoided: ${slot.blocked.map((b) => `${b.label ? `${b.label} ` : ''}${hhmm(b.start, zone)}–${hhmm(b.end, zone)}`).join(', ')}.`);
  if (slot.budgetDays.length) parts.push(`Skipped ${slot.budgetDays.join(', ')}: the day budget is used up.`);
  if (slot.fallback) parts.push(`The window named had no free ${est.booked} minutes, so this is the first free slot after it.`);
  return parts.join(' ');
}
