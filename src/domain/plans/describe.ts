import { formatHHMM } from '../../time/local-date.js';
import { describeRrule } from '../../time/repeat.js';
import { toZoned } from '../../time/zoned-time.js';
import type { StoredAction, StoredPlan } from './plan.js';

/** `tue 2031-01-07 15:00` in `zone`: how sentences in traces name a time. */
export function localWhen(iso: string, zone: string): string {
  const z = toZoned(Date.parse(iso), zone);
  return `${z.weekday} ${z.year}-${String(z.month).padStart(2, '0')}-${String(z.day).padStart(2, '0')} ${formatHHMM(z.hour * 60 + z.minute)}`;
}

/** One action in a sentence. */
export function describeAction(a: StoredAction, zone: string): string {
  const at = `${localWhen(a.scheduled_for, zone)} ${zone}`;
  if (a.kind === 'add_event')
    return `add “${a.title}” ${a.rrule ? `from ${at}, repeating ${describeRrule(a.rrule, zone)},` : `on ${at}`} for ${a.duration_minutes} min`;
  if (a.kind === 'reschedule_event') return `move “${a.title}” (${a.event_uid}) to ${at} for ${a.duration_minutes} min`;
  return `reflect “${a.title}” on ${at}`;
}

/**
 * Who proposed a plan, as a sentence's subject. A summary of the trace is its first words, so it
 * names the proposer in words (the planner, the agent) rather than the key owner's user id.
 */
function proposer(p: Pick<StoredPlan, 'agent_id' | 'provider' | 'model'>): string {
  if (p.agent_id) return `Agent ${p.agent_id}`;
  if (p.provider === 'default') return 'The default planner';
  if (p.provider) return `The ${p.provider} planner${p.model ? ` (${p.model})` : ''}`;
  return 'You';
}

/** The content of a plan's agent_plan trace. */
export function describePlan(
  p: Pick<StoredPlan, 'plan_id' | 'agent_id' | 'provider' | 'model' | 'prompt' | 'actions' | 'reasoning' | 'edited'>,
  zone: string,
): string {
  const who = proposer(p);
  const live = p.actions.filter((a) => a.status !== 'rejected');
  const parts = [`${who} proposed plan ${p.plan_id}${p.prompt ? ` for “${p.prompt}”` : ''}: ${live.map((a) => describeAction(a, zone)).join('; ')}.`];
  if (p.edited) parts.push('Edited at approval.');
  if (p.reasoning) parts.push(`Reasoning: ${p.reasoning}`);
  return parts.join(' ');
}
