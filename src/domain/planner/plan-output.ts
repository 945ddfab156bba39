import { describeRrule } from '../../time/repeat.js';
import type { Estimate } from './estimate.js';
import type { Item } from './interpret.js';
import { hhmm, localStamp } from './place.js';
import { type Ctx, MINUTE, quote, type Result } from './plan-context.js';
import { slug } from './text/title.js';
import type { ActionNotes, CalendarItem, PlacementRule, PlannerOutput, ProposedAction } from './types.js';

/** What a plan says: its actions, the reply to the person, and the reasoning. */

/** The task an item's action gets. */
export function taskOf(ctx: Ctx, item: Item): string {
  return ctx.input.taskId ?? slug(item.kind === 'reflect' ? (item.topic ? `reflect ${item.topic}` : 'reflection') : item.title);
}

export function result(
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
export function textOf(ctx: Ctx, f: { start: number; end: number }): string {
  return ctx.text
    .slice(f.start, f.end)
    .trim()
    .replace(/[,;:.!?]+$/, '');
}

export function describeEvent(c: CalendarItem, zone: string): string {
  return `${quote(c.title)} ${hhmm(c.start, zone)}–${hhmm(c.end, zone)}`;
}

export function replyFor(results: Result[], skipped: PlannerOutput['skipped'], zone: string): string {
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
export function planReasoning(results: Result[], skipped: PlannerOutput['skipped']): string {
  const parts = results.map((r) => `${r.action.title} — ${RULE_NAMES[r.notes.rule]}, ${r.notes.local}`);
  const head = parts.length ? `Default planner, ${parts.length} action${parts.length === 1 ? '' : 's'}: ${parts.join('; ')}.` : '';
  const left = skipped.filter((s) => s.reason).map((s) => `Not planned: ${s.reason}`);
  return [head, ...left].filter(Boolean).join(' ');
}
