import type { AgentStatus, ModelStatus } from '../contracts/status.js';
import { PLAN_STATUSES } from '../contracts/status.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';
import { planReads } from './plans/plan-reads.js';

/** Runtime summary for `GET /agent/status`: the caller's queue, the planner in use, store sizes. */
export async function agentStatus(deps: {
  store: Store;
  clock: Clock;
  version: string;
  startedAt: Date;
  planner: { provider: string; model: string | null };
  userId: string;
  /** The built-in embedding model's state (its preparation on a first start). */
  model?: ModelStatus;
}): Promise<AgentStatus> {
  const queue = Object.fromEntries(PLAN_STATUSES.map((s) => [s, 0])) as AgentStatus['queue'];
  for (const p of planReads(deps.store).ofUser(deps.userId)) {
    if (Object.hasOwn(queue, p.status)) queue[p.status as keyof AgentStatus['queue']]++;
  }
  const counts = deps.store.counts();
  return {
    status: 'ok',
    uptime_s: Math.round((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000),
    version: deps.version,
    queue,
    planner: deps.planner,
    store: { traces: counts.traces, events: counts.events, plans: counts.plans, bytes: await deps.store.bytes() },
    ...(deps.model ? { model: deps.model } : {}),
  };
}
