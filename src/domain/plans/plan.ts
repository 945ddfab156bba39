import type { Action, Plan, PlanStatus } from '../../contracts/plans.js';

/** Something execution produced, with the fingerprint it had then (see produced.ts). */
export interface Produced {
  action_id: string;
  collection: 'events' | 'traces';
  uid: string;
  fingerprint: string;
}

/** A plan as stored in `plans`: the API shape plus what the service keeps for itself. */
export interface StoredPlan extends Plan {
  [k: string]: unknown;
  /** What execution created or changed; editing one of them moves the plan to `edited`. */
  produced?: Produced[];
}

export type StoredAction = Action;

/** The API shape of a stored plan (internal bookkeeping left out). */
export function planView(p: StoredPlan): Plan {
  const { produced: _p, ...view } = p;
  return view;
}

/** Actions that take part in approval and execution (an action left out at approval does not). */
export const liveActions = (p: Pick<StoredPlan, 'actions'>) => p.actions.filter((a) => a.status !== 'rejected');

export type { PlanStatus };
