import { addDays, daysBetween, formatHHMM, formatLocalDate, type LocalDate, startOfIsoWeek, WEEKDAYS, weekdayOf } from '../../time/local-date.js';
import { describeRrule, parseRepeat } from '../../time/repeat.js';
import { atLocalTime, localDateOf, toZoned } from '../../time/zoned-time.js';
import { type Estimate, estimateMinutes } from './estimate.js';
import { matchEvent } from './event-match.js';
import type { DaysFeature, TimeFeature } from './extract/features.js';
import { extractFeatures } from './extract/index.js';
import { type Item, interpret } from './interpret.js';
import { eachDay, hhmm, localDay, localStamp, Placer, type SlotResult } from './place.js';
import { type DayWindow, dayWindow, inRange } from './ranges.js';
import { avoidedBy } from './rejections.js';
import { segment } from './segment.js';
import { normalizePrompt } from './text/normalize.js';
import { contentWords, slug } from './text/title.js';
import { CANCEL_WORD_RE, EVENING_HINT_RE, KEYBOARD_MASH_RE, MOVE_WORD_RE } from './text/words.js';
import type { ActionNotes, CalendarItem, PlacementRule, PlannerInput, PlannerOutput, ProposedAction } from './types.js';

const MINUTE = 60_000;
/** A repetition with no end named runs this long. */
const DEFAULT_RECURRENCE_DAYS = 28;
const MAX_OCCURRENCES = 40;
/** Below this a title match is a guess, not the event the person meant. */
const MIN_MATCH = 0.34;

interface Result {
  action: ProposedAction;
  notes: ActionNotes;
}

type Outcome = { results: Result[] } | { skip: string };

const weekdayIdx = (d: LocalDate) => WEEKDAYS.indexOf(weekdayOf(d));
const round2 = (n: number) => Math.round(n * 100) / 100;
const clamp = (n: number) => round2(Math.min(0.99, Math.max(0.05, n)));
const quote = (s: string) => `"${s.trim()}"`;

function looksLikeWord(w: string): boolean {
  if (/\d/.test(w)) return true;
  if (!/[aeiouy]/.test(w)) return false;
  if (/[bcdfghjklmnpqrstvwxz]{5,}/.test(w) || /(.)\1\1/.test(w)) return false;
  return !KEYBOARD_MASH_RE.test(w);
}

/**
 * The deterministic planner: an English prompt, the user's clock, zone, tempo profile and calendar
 * in; ordered actions with the reason for each time out. Pure: everything it reads is in `input`.
 */
export function planPrompt(input: PlannerInput): PlannerOutput {
  const { timezone: zone } = input;
  const now = input.now.getTime();
  const z = toZoned(now, zone);
  const today: LocalDate = { year: z.year, month: z.month, day: z.day };
  const norm = normalizePrompt(input.prompt);
  const typos = norm.fixes.filter((f) => f.kind === 'typo');
  const features = extractFeatures(norm, {
    today,
    hour: z.hour,
    minute: z.minute,
    instant: input.now,
    offsetMinutes: Math.round((Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second) - Math.floor(now / 1000) * 1000) / MINUTE),
    dayFirst: !/^(?:America|US|Canada)\//.test(zone),
  });
  const segs = segment(norm.lower, features);
  const items: Item[] = [];
  for (const s of segs) {
    const item = interpret(norm.text, norm.lower, s, items.at(-1));
    items.push(item);
    // One request naming several days is one action per day.
    for (const day of item.alsoOn ?? []) items.push({ ...item, date: day.date, time: day.time, alsoOn: undefined });
  }

  const placer = new Placer({ now, zone, profile: input.profile, calendar: input.calendar, counted: input.counted ?? [], agentId: input.agentId ?? null });
  const penalty = typos.length * 0.05;
  const results: Result[] = [];
  const skipped: PlannerOutput['skipped'] = [];
  const ctx: Ctx = { input, text: norm.text, zone, now, today, placer, penalty };

  for (const item of items) {
    const outcome = planItem(ctx, item);
    if ('skip' in outcome) {
      if (outcome.skip) skipped.push({ text: item.text, reason: outcome.skip });
      continue;
    }
    for (const r of outcome.results) {
      const twin = r.action.kind === 'add_event' && !r.action.rrule ? duplicateOf(ctx, r.action) : undefined;
      if (twin)
        skipped.push({
          text: item.text,
          reason: `${quote(twin.title)} is already on your calendar at ${localStamp(twin.start, zone)} (${zone}): not added twice.`,
        });
      else results.push(r);
    }
  }
  if (typos.length) {
    for (const r of results) r.action.reasoning += ` Read ${typos.map((t) => `${quote(t.from)} as ${quote(t.to)}`).join(', ')}.`;
  }
  return {
    actions: results.map((r) => r.action),
    notes: results.map((r) => r.notes),
    reply: replyFor(results, skipped, zone),
    skipped,
    reasoning: planReasoning(results, skipped),
  };
}

interface Ctx {
  input: PlannerInput;
  /** The normalized prompt. */
  text: string;
  zone: string;
  now: number;
  today: LocalDate;
  placer: Placer;
  penalty: number;
}

function planItem(ctx: Ctx, item: Item): Outcome {
  if (item.badTime) return { skip: `${item.badTime.reason} in ${quote(item.text)}; say e.g. "at 23:00" or "at 11pm".` };
  if (item.reschedule) {
    // "move the 3pm meeting": among events with the words, the one at that time.
    const at = item.fromTime ? resolveMinutes(item.fromTime, item) : undefined;
    const pool =
      at === undefined
        ? ctx.input.calendar
        : ctx.input.calendar.filter((c) => {
            const z = toZoned(c.start, ctx.zone);
            return z.hour * 60 + z.minute === at;
          });
    const match =
      matchEvent(item.words, pool.length ? pool : ctx.input.calendar, ctx.now) ??
      (at !== undefined && pool.length === 1 ? { item: pool[0]!, score: 1, matched: [] } : undefined);
    if (match && match.score >= MIN_MATCH) return reschedule(ctx, item, match.item, match.matched);
    if (item.reschedule === 'strong') {
      const what = item.words.filter((w) => !MOVE_WORD_RE.test(w)).join(' ');
      return { skip: what ? `I found no event matching ${quote(what)} to move.` : 'Say which event to move.' };
    }
  }
  if (item.cancel) {
    const match = matchEvent(
      item.words.filter((w) => !CANCEL_WORD_RE.test(w)),
      ctx.input.calendar,
      ctx.now,
    );
    const which = match && match.score >= MIN_MATCH ? ` ${quote(match.item.title)} (${match.item.occurrence_of ?? match.item.uid})` : '';
    return { skip: `Plans cannot cancel events; remove${which || ' it'} with "kairos cal rm <uid>" (DELETE /calendar/remove).` };
  }
  const why = notActionable(item);
  if (why !== undefined) return { skip: why };
  if (item.recurrence) return recurring(ctx, item);
  return single(ctx, item);
}

/** Why a request has nothing to schedule ('' = say nothing: it was only chit-chat). */
function notActionable(item: Item): string | undefined {
  const words = item.words;
  if (!words.length || !item.title) {
    if (item.kind === 'reflect') return undefined;
    return item.anchored ? `I found no task to schedule in ${quote(item.text)}.` : '';
  }
  if (item.kind === 'reflect') return undefined;
  const plausible = words.filter(looksLikeWord).length;
  if (plausible * 2 < words.length || plausible === 0) return `I could not read a task in ${quote(item.text)}.`;
  if (item.question && !item.asked) return `${quote(item.text)} is a question, not something to schedule.`;
  if (item.past) return `${quote(item.text)} reads as something that already happened, not something to schedule.`;
  if (item.statement && !item.range && !item.days && !item.recurrence) return `${quote(item.text)} reads as a statement, not something to schedule.`;
  if (!item.anchored && !item.asked) return `${quote(item.text)} has no date, time or length; say when (e.g. "${item.title} tomorrow at 10am").`;
  return undefined;
}

// ------------------------------------------------------------------ times of day

/** A bare hour (no am/pm) read the way people mean it: by the part of the day named, the kind of task, else 7–11 morning, 12 noon, 1–6 afternoon. */
function resolveMinutes(t: Pick<TimeFeature, 'minutes' | 'certain'>, item: Item, window?: DayWindow): number {
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

function windowBounds(item: Item): { after?: number; before?: number } | undefined {
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
function dayIn(days: DaysFeature, weekday?: number): LocalDate | undefined {
  for (const d of eachDay(days.from, days.to)) if (weekday === undefined || weekdayIdx(d) === weekday) return d;
  return undefined;
}

// ------------------------------------------------------------------ one request

function single(ctx: Ctx, item: Item): Outcome {
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
function duplicateOf(ctx: Ctx, action: ProposedAction): CalendarItem | undefined {
  const start = Date.parse(action.scheduled_for);
  const key = slug(action.title);
  const day = formatLocalDate(localDateOf(start, ctx.zone));
  return ctx.input.calendar.find(
    (c) => slug(c.title) === key && Math.abs(c.start - start) <= DUPLICATE_WINDOW && formatLocalDate(localDateOf(c.start, ctx.zone)) === day,
  );
}

/** The task an item's action gets (the same rule as `result`). */
function taskOf(ctx: Ctx, item: Item): string {
  return ctx.input.taskId ?? slug(item.kind === 'reflect' ? (item.topic ? `reflect ${item.topic}` : 'reflection') : item.title);
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
function explicitWarnings(ctx: Ctx, kind: ProposedAction['kind'], start: number, end: number, minutes: number): string[] {
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

// ------------------------------------------------------------------ repetition

function recurring(ctx: Ctx, item: Item): Outcome {
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

// ------------------------------------------------------------------ moving an event

function reschedule(ctx: Ctx, item: Item, ev: CalendarItem, matched: string[]): Outcome {
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

// ------------------------------------------------------------------ output

function result(
  ctx: Ctx,
  item: Item,
  kind: ProposedAction['kind'],
  start: number,
  est: Estimate,
  tag: string | undefined,
  reasoning: string,
  confidence: number,
  notes: Omit<ActionNotes, 'local'>,
): Result {
  const action: ProposedAction = {
    kind,
    task_id: taskOf(ctx, item),
    title: item.title,
    scheduled_for: new Date(start).toISOString(),
    duration_minutes: est.booked,
    estimate_minutes: est.raw,
    ...(tag ? { tempo_tag: tag } : {}),
    ...(kind === 'reflect' ? { content: item.topic ? `Reflection on ${item.topic}.` : `Reflection: ${item.text}` } : {}),
    reasoning,
    confidence,
  };
  return { action, notes: { ...notes, local: localStamp(start, ctx.zone) } };
}

/** The words a feature came from (features carry positions in the whole normalized prompt). */
function textOf(ctx: Ctx, f: { start: number; end: number }): string {
  return ctx.text
    .slice(f.start, f.end)
    .trim()
    .replace(/[,;:.!?]+$/, '');
}

function describeEvent(c: CalendarItem, zone: string): string {
  return `${quote(c.title)} ${hhmm(c.start, zone)}–${hhmm(c.end, zone)}`;
}

function replyFor(results: Result[], skipped: PlannerOutput['skipped'], zone: string): string {
  const why = skipped.filter((s) => s.reason).map((s) => s.reason);
  if (!results.length) {
    return why.length ? `Nothing to schedule: ${why.join(' ')}` : 'Nothing to schedule: I found no task with a date, a time or a length in that.';
  }
  const lines = results.map(({ action: a }) => {
    const verb = a.kind === 'reschedule_event' ? 'move' : a.kind === 'reflect' ? 'reflect' : 'add';
    return `${verb} ${quote(a.title)} ${localStamp(Date.parse(a.scheduled_for), zone)}${a.kind === 'reflect' ? '' : `–${hhmm(Date.parse(a.scheduled_for) + a.duration_minutes * MINUTE, zone)}`}${a.rrule ? `, repeating ${describeRrule(a.rrule, zone)}` : ''}`;
  });
  const head = `Proposed ${results.length} action${results.length === 1 ? '' : 's'}: ${lines.join('; ')}.`;
  return why.length ? `${head} Not planned: ${why.join(' ')}` : head;
}

const RULE_NAMES: Record<PlacementRule, string> = {
  explicit_time: 'explicit time',
  relative_time: 'time relative to now',
  tag_range: 'first free slot in the named range',
  free_slot: 'first free slot',
  recurrence: 'recurrence',
  shift: 'shifted',
};

/** The plan's own reasoning: one line per action naming the rule, then what was left out. */
function planReasoning(results: Result[], skipped: PlannerOutput['skipped']): string {
  const parts = results.map((r) => `${r.action.title} — ${RULE_NAMES[r.notes.rule]}, ${r.notes.local}`);
  const head = parts.length ? `Default planner, ${parts.length} action${parts.length === 1 ? '' : 's'}: ${parts.join('; ')}.` : '';
  const left = skipped.filter((s) => s.reason).map((s) => `Not planned: ${s.reason}`);
  return [head, ...left].filter(Boolean).join(' ');
}
