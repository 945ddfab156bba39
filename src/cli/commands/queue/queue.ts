import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { allPlans } from '../../input/all-plans.js';
import { describePlan } from '../../output/plans.js';
import { isQueueStatus, QUEUE_STATUSES } from './statuses.js';

export async function run({ opts }: RunInput<{ status?: string; task?: string; verbose?: boolean }>, deps: CliDeps): Promise<void> {
  if (opts.status !== undefined && !isQueueStatus(opts.status)) throw usage(`--status must be one of ${QUEUE_STATUSES.join(', ')}, not "${opts.status}".`);
  const r = await allPlans(await deps.client(), { status: opts.status, task_id: opts.task });
  const tz = deps.io.json ? 'UTC' : await deps.userZone();
  deps.io.data(r, () => {
    const what = opts.status === 'all' ? '' : `${opts.status ?? 'proposed'} `;
    if (!r.plans.length) return `No ${what}plans${opts.task ? ` for task ${opts.task}` : ''}.`;
    const id = deps.io.ids(r.plans.map((p) => p.plan_id));
    return r.plans.map((p) => describePlan(p, deps.io.chalk, tz, id, !opts.verbose)).join(opts.verbose ? '\n\n' : '\n');
  });
  if (!r.plans.length) deps.io.hint('Agents propose with POST /agent/plan; review with `kairos review`.');
}
