import type { LocalDate } from '../../time/local-date.js';
import { toZoned } from '../../time/zoned-time.js';
import { matchEvent } from './event-match.js';
import { extractFeatures } from './extract/index.js';
import { type Item, interpret } from './interpret.js';
import { localStamp, Placer } from './place.js';
import { type Ctx, MINUTE, type Outcome, quote, type Result } from './plan-context.js';
import { planReasoning, replyFor } from './plan-output.js';
import { recurring } from './plan-recurring.js';
import { reschedule } from './plan-reschedule.js';
import { duplicateOf, single } from './plan-single.js';
import { segment } from './segment.js';
import { normalizePrompt } from './text/normalize.js';
import { CANCEL_WORD_RE, KEYBOARD_MASH_RE, MOVE_WORD_RE } from './text/words.js';
import { resolveMinutes } from './times-of-day.js';
import type { PlannerInput, PlannerOutput } from './types.js';

/** Below this a title match is a guess, not the event the person meant. */
const MIN_MATCH = 0.34;

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
