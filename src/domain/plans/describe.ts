import { formatHHMM } from '../../time/local-date.js';
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
  if (a.kind === 'add_event') return `add “${a.title}” on ${at} for ${a.duration_minutes} min`;
  if (a.kind === 'reschedule_event') return `move “${a.title}” (${a.event_uid}) to ${at} for ${a.duration_minutes} min`;
  return `reflect “${a.title}” on ${at}`;
}

/** The content of a plan's agent_plan trace. */
export function describePlan(
  p: Pick<StoredPlan, 'plan_id' | 'agent_id' | 'prompt' | 'actions' | 'reasoning' | 'edited'>,
  zone: string,
  author: string,
): string {
  const who = p.agent_id ? `Agent ${p.agent_id}` : author;
  const live = p.actions.filter((a) => a.status !== 'rejected');
  const parts = [`${who} proposed plan ${p.plan_id}${p.prompt ? ` for “${p.prompt}”` : ''}: ${live.map((a) => describeAction(a, zone)).join('; ')}.`];
  if (p.edited) parts.push('Edited at approval.');
  if (p.reasoning) parts.push(`Reasoning: ${p.reasoning}`);
  return parts.join(' ');
}
