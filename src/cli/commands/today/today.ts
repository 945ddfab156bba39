import { addDays } from '../../../time/local-date.js';
import { localDateOf, startOfLocalDay } from '../../../time/zoned-time.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { allEvents } from '../../input/all-events.js';
import { allPlans } from '../../input/all-plans.js';
import { overlapMark, overlapsAmong } from '../../output/overlaps.js';
import { localStamp } from '../../output/time.js';

/**
 * `kairos today`: the person's day in their zone — events (all-day ones marked), approved plans
 * with an action due today, and what agents proposed and waits for review.
 */
export async function run(_: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const tz = await deps.userZone();
  const day = localDateOf(Date.now(), tz);
  const start = startOfLocalDay(day, tz);
  const end = startOfLocalDay(addDays(day, 1), tz);
  const [{ events }, approved, proposed] = await Promise.all([
    allEvents(client, { start: start.toISOString(), end: end.toISOString() }),
    allPlans(client, { status: 'approved' }),
    allPlans(client, { status: 'proposed' }),
  ]);
  const inDay = (iso: string) => iso >= start.toISOString() && iso < end.toISOString();
  const due = approved.plans.filter((p) => p.actions.some((a) => a.status !== 'rejected' && inDay(a.scheduled_for)));
  const fromAgents = proposed.plans.filter((p) => p.agent_id);
  const io = deps.io;
  io.data({ date: localStamp(start.toISOString(), tz).slice(0, 10), timezone: tz, events, due: due, proposed: fromAgents }, () => {
    const c = io.chalk;
    const out = [c.bold(`Today, ${localStamp(start.toISOString(), tz).slice(0, 10)} (${tz})`)];
    if (!events.length) out.push(c.dim('  no events'));
    const overlaps = overlapsAmong(events);
    for (const e of events) {
      const mark = overlapMark(overlaps.get(e), tz);
      const when = e.all_day
        ? 'all day    '
        : `${localStamp(e.scheduled_for, tz).slice(11)}–${localStamp(new Date(Date.parse(e.scheduled_for) + e.duration_minutes * 60_000).toISOString(), tz).slice(11)}`;
      out.push(`  ${when}  ${e.title}${e.location ? c.dim(` @ ${e.location}`) : ''}${mark ? `  ${c.yellow(mark)}` : ''}`);
    }
    if (due.length) {
      out.push(c.bold('Approved, due today (kairos execute <plan>)'));
      for (const p of due) out.push(`  ${p.plan_id}  ${p.actions.map((a) => a.title).join(', ')}`);
    }
    if (fromAgents.length) {
      out.push(c.bold('Proposed by agents (kairos review)'));
      for (const p of fromAgents) out.push(`  ${p.plan_id}  ${p.agent_id}: ${p.actions.map((a) => a.title).join(', ')}`);
    }
    return out.join('\n');
  });
}
