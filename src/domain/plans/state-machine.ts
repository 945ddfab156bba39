import type { StoredTrace } from '../../contracts/memory.js';
import type { PlanStatus } from '../../contracts/plans.js';
import { conflict } from '../../errors.js';
import type { Tx } from '../../store/store.js';
import { stageTrace } from '../memory/stage-trace.js';
import type { StoredPlan } from './plan.js';

/**
 * The plan state machine (SPEC §4): the only moves a plan can make. Everything else is 409
 * `invalid_transition`, and every move appends an immutable `transition` trace linked to the
 * plan's agent_plan trace, in the same transaction as the move.
 */
export const TRANSITIONS: Readonly<Record<PlanStatus, readonly PlanStatus[]>> = {
  proposed: ['approved', 'rejected'],
  approved: ['executed'],
  executed: ['edited'],
  rejected: [],
  edited: [],
};

const VERB: Record<PlanStatus, string> = {
  proposed: 'proposed',
  approved: 'approve',
  executed: 'execute',
  rejected: 'reject',
  edited: 'edit',
};

export const canTransition = (from: PlanStatus, to: PlanStatus) => TRANSITIONS[from].includes(to);

export function assertTransition(plan: Pick<StoredPlan, 'plan_id' | 'status'>, to: PlanStatus): void {
  if (canTransition(plan.status, to)) return;
  const allowed = TRANSITIONS[plan.status];
  const next = allowed.length
    ? `${/^[aeiou]/.test(plan.status) ? 'an' : 'a'} ${plan.status} plan can only become ${allowed.join(' or ')}`
    : `${plan.status} is final`;
  throw conflict(`Cannot ${VERB[to]} plan ${plan.plan_id}: it is ${plan.status}, and ${next}.`, 'invalid_transition', [
    { path: 'plan_id', message: `status is ${plan.status}`, from: plan.status, to },
  ]);
}

export interface TransitionInfo {
  actor: string;
  now: Date;
  /** A few words on why (a rejection reason, what was edited). */
  reason?: string;
  /** Extra fields on the plan (approved_at, reason, …). */
  patch?: Partial<StoredPlan>;
}

/**
 * Move `plan` to `to` inside `tx`: the plan with its new status and the transition trace.
 * Returns both.
 */
export function stageTransition(tx: Tx, plan: StoredPlan, to: PlanStatus, info: TransitionInfo): { plan: StoredPlan; trace: StoredTrace } {
  assertTransition(plan, to);
  const at = info.now.toISOString();
  const next: StoredPlan = {
    ...plan,
    ...info.patch,
    status: to,
    updated_at: at,
    // Actions follow the plan, except those left out at approval; on `edited` only the action whose
    // result changed is marked, by the caller.
    actions: (info.patch?.actions ?? plan.actions).map((a) => (a.status === 'rejected' || to === 'edited' ? a : { ...a, status: to })),
  };
  tx.put('plans', next);
  const why = info.reason ? `: ${info.reason}` : '.';
  const trace = stageTrace(
    tx,
    {
      user_id: plan.user_id,
      type: 'transition',
      task_id: plan.task_id,
      content: `Plan ${plan.plan_id} went from ${plan.status} to ${to} (by ${info.actor})${why}`,
      actor: info.actor,
      linked_trace_ids: [plan.trace_uid],
      fields: { from: plan.status, to, actor: info.actor, plan_id: plan.plan_id, ...(info.reason ? { reason: info.reason } : {}) },
    },
    info.now,
  );
  return { plan: next, trace };
}
