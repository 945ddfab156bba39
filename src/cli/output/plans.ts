import type { ChalkInstance } from 'chalk';
import type { Action, ExecuteResponse, Plan } from '../../contracts/plans.js';
import { clipWords } from './text.js';
import { when } from './time.js';

/** `15:45`, or a full stamp when the end falls on another day. */
function until(startIso: string, minutes: number, tz: string): string {
  const start = when(startIso, tz);
  const end = when(new Date(Date.parse(startIso) + minutes * 60_000).toISOString(), tz);
  return start.slice(0, -6) === end.slice(0, -6) ? end.slice(-5) : end;
}

export function describeActionLine(a: Action, c: ChalkInstance, tz: string, names?: ReadonlyMap<string, string>): string {
  const time = a.kind === 'reflect' ? when(a.scheduled_for, tz) : `${when(a.scheduled_for, tz)}–${until(a.scheduled_for, a.duration_minutes, tz)}`;
  const bits = [
    c.bold(a.kind.padEnd(16)),
    `“${a.title}”`,
    time,
    a.kind === 'reflect' ? '' : `${a.duration_minutes} min`,
    a.tempo_tag ?? '',
    a.kind === 'reschedule_event' ? c.dim(`(${a.event_uid})`) : '',
    a.status === 'rejected' ? c.red('left out') : a.status !== 'proposed' ? c.dim(a.status) : '',
    a.edited ? c.yellow('changed at review') : '',
  ].filter(Boolean);
  const lines = [bits.join('  ')];
  if (a.kind === 'reflect' && a.content && a.content !== a.title) lines.push(c.dim(`    ${a.content.replace(/\s+/g, ' ').slice(0, 200)}`));
  if (a.conflicts?.length) lines.push(c.yellow(`    overlaps ${a.conflicts.map((u) => names?.get(u) ?? u).join(', ')}`));
  if (a.reasoning) lines.push(c.dim(`    why: ${clipWords(a.reasoning, 200)}`));
  return lines.join('\n');
}

const STATUS_COLOR: Record<Plan['status'], keyof ChalkInstance> = { proposed: 'cyan', approved: 'blue', executed: 'green', rejected: 'red', edited: 'magenta' };

/**
 * A plan as a header line and one numbered entry per action; `id` shortens its id in a listing.
 * `compact` (the queue's default): one line per action, without the prompt and the reasoning.
 */
export function describePlan(
  p: Plan,
  c: ChalkInstance,
  tz: string,
  id: (id: string) => string = (x) => x,
  compact = false,
  names?: ReadonlyMap<string, string>,
): string {
  const color = c[STATUS_COLOR[p.status]] as ChalkInstance;
  const head = [
    c.bold(id(p.plan_id)),
    color(p.status),
    p.agent_id ? `by ${p.agent_id}` : p.provider ? `by the ${p.provider} planner` : '',
    `task ${p.task_id}`,
    c.dim(when(p.created_at, tz)),
    p.edited ? c.yellow('changed at review') : '',
  ].filter(Boolean);
  const lines = [head.join('  ')];
  if (p.prompt && !compact) lines.push(`  prompt: “${p.prompt}”`);
  if (p.reasoning && !compact) lines.push(c.dim(`  ${clipWords(p.reasoning, 300)}`));
  p.actions.forEach((a, i) => {
    const text = describeActionLine(a, c, tz, names);
    lines.push(
      `  ${i + 1}. ${compact ? text.split('\n')[0] + (a.conflicts?.length ? `  ${c.yellow(`overlaps ${a.conflicts.length}`)}` : '') : text.replace(/\n/g, '\n   ')}`,
    );
  });
  if (p.reason) lines.push(`  rejected: ${p.reason}`);
  return lines.join('\n');
}

/** What an execution changed (or would change), as a diff: + new, ~ changed. */
export function describeExecution(r: ExecuteResponse, c: ChalkInstance, tz: string): string {
  const lines: string[] = [];
  if (r.simulated) lines.push(c.yellow('Simulation: nothing was changed. Executing would:'));
  for (const p of r.plans) {
    lines.push(`${c.bold(p.plan_id)}  task ${p.task_id}  → ${p.status}`);
    for (const res of r.results.filter((x) => x.plan_id === p.plan_id)) {
      const e = res.event;
      if (res.kind === 'add_event' && e) {
        lines.push(
          c.green(
            `  + event “${e.title}”  ${when(e.scheduled_for, tz)}–${until(e.scheduled_for, e.duration_minutes, tz)} (${e.duration_minutes} min)  ${e.uid}`,
          ),
        );
      } else if (res.kind === 'reschedule_event' && e) {
        const b = res.before;
        lines.push(c.yellow(`  ~ event “${e.title}”  ${e.uid}`));
        if (b) lines.push(c.red(`      - ${when(b.scheduled_for, tz)}–${until(b.scheduled_for, b.duration_minutes, tz)} (${b.duration_minutes} min)`));
        lines.push(c.green(`      + ${when(e.scheduled_for, tz)}–${until(e.scheduled_for, e.duration_minutes, tz)} (${e.duration_minutes} min)`));
      } else if (res.trace) {
        lines.push(c.green(`  + ${res.trace.type} “${res.trace.content.replace(/\s+/g, ' ').slice(0, 120)}”  ${res.trace.uid}`));
      }
      if (res.kind !== 'reflect' && res.trace) lines.push(c.dim(`  + trace ${res.trace.type} ${res.trace.uid}`));
    }
  }
  return lines.join('\n');
}
