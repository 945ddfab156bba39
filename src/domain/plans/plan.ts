import type { Action, Plan, PlanStatus } from '../../contracts/plans.js';
import type { Produced, StoredPlan } from '../../contracts/stored.js';

export type { Produced, StoredPlan };

export type StoredAction = Action;

/** The API shape of a stored plan (internal bookkeeping left out). */
export function planView(p: StoredPlan): Plan {
  const { produced: _p, ...view } = p;
  return view;
}

/** Actions that take part in approval and execution (an action left out at approval does not). */
export const liveActions = (p: Pick<StoredPlan, 'actions'>) => p.actions.filter((a) => a.status !== 'rejected');

export type { PlanStatus };
