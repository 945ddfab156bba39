import type { AppError } from '../../errors.js';
import { validationFailed } from '../../errors.js';
import type { Tx } from '../../store/store.js';
import { type ConstraintRules, type CountedAction, checkPlan, type Violation, violationDetails } from '../tempo/constraint-check.js';
import type { StoredAction, StoredPlan } from './plan.js';

export interface ConstraintContext {
  rules: ConstraintRules;
  timezone: string;
  now: Date;
}

/** Every action of the user's plans as the checker counts them, except those `skip` says to leave out. */
export function countedActions(tx: Tx, userId: string, skip: (plan: StoredPlan, action: StoredAction) => boolean = () => false): CountedAction[] {
  const out: CountedAction[] = [];
  for (const plan of tx.byIndex('plans', 'user_id', userId)) {
    for (const a of plan.actions) {
      if (skip(plan, a)) continue;
      out.push({
        kind: a.kind,
        scheduled_for: a.scheduled_for,
        duration_minutes: a.duration_minutes,
        agent_id: plan.agent_id,
        event_uid: a.event_uid ?? null,
        // An action left out at approval is rejected even when its plan is not.
        status: a.status === 'rejected' ? 'rejected' : plan.status,
        proposed_at: plan.created_at,
      });
    }
  }
  return out;
}

function violationError(violations: readonly (Violation & { action_index: number })[], paths: readonly string[]): AppError {
  const details = violationDetails(violations).map((d, i) => ({ ...d, path: d.path.replace(/^actions\.\d+\./, `${paths[violations[i]!.action_index]}.`) }));
  const summary = violations.map((v, i) => `${details[i]!.path}: ${v.message}`).join('; ');
  return validationFailed(`The plan breaks the agent constraints: ${summary}.`, details, 'constraint_violation');
}

/**
 * Check new actions at proposal: blocked slots, cadence and budgets, each action counted as if
 * the earlier ones of the same plan were already proposed. Throws 422 `constraint_violation`
 * with every violation in `details`. Blocked time binds agents: in the person's own plan
 * (`agentId` null) it is returned as a warning per action index instead.
 */
export function assertProposalAllowed(
  tx: Tx,
  userId: string,
  agentId: string | null,
  actions: readonly StoredAction[],
  c: ConstraintContext,
): Map<number, string[]> {
  const r = checkPlan(
    actions.map((a) => ({
      kind: a.kind,
      scheduled_for: a.scheduled_for,
      duration_minutes: a.duration_minutes,
      agent_id: agentId,
      event_uid: a.event_uid ?? null,
    })),
    { ...c, actions: countedActions(tx, userId) },
  );
  const warnings = new Map<number, string[]>();
  const binding = r.violations.filter((v) => {
    if (agentId !== null || v.rule !== 'blocked_slot') return true;
    warnings.set(v.action_index, [...(warnings.get(v.action_index) ?? []), v.message]);
    return false;
  });
  if (binding.length)
    throw violationError(
      binding,
      actions.map((_, i) => `actions.${i}`),
    );
  return warnings;
}

/**
 * Re-check actions the person moved at approval: blocked slots and budgets (cadence counts
 * proposals, and editing one proposes nothing new). The plan's own old versions are not counted.
 */
export function assertEditsAllowed(
  tx: Tx,
  plan: StoredPlan,
  actions: readonly StoredAction[],
  changed: readonly number[],
  c: ConstraintContext,
  editPaths: ReadonlyMap<string, string>,
): void {
  if (!changed.length) return;
  const movedIds = new Set(changed.map((i) => actions[i]!.action_id));
  const others = countedActions(tx, plan.user_id, (p, a) => p.plan_id === plan.plan_id && movedIds.has(a.action_id));
  const violations: (Violation & { action_index: number })[] = [];
  const counted = [...others];
  for (const i of changed) {
    const a = actions[i]!;
    const r = checkPlan(
      [{ kind: a.kind, scheduled_for: a.scheduled_for, duration_minutes: a.duration_minutes, agent_id: plan.agent_id, event_uid: a.event_uid ?? null }],
      {
        ...c,
        actions: counted,
      },
    );
    for (const v of r.violations) if (v.rule !== 'cadence') violations.push({ ...v, action_index: i });
    counted.push({
      kind: a.kind,
      scheduled_for: a.scheduled_for,
      duration_minutes: a.duration_minutes,
      agent_id: plan.agent_id,
      status: 'approved',
      proposed_at: plan.created_at,
    });
  }
  if (violations.length)
    throw violationError(
      violations,
      actions.map((a, i) => editPaths.get(a.action_id) ?? `plan.actions.${i}`),
    );
}
