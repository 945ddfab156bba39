import type { ActionInput, PlanContext } from '../../contracts/plans.js';
import type { StoredEvent } from '../../contracts/stored.js';
import type { Tx } from '../../store/store.js';
import type { Principal } from '../principal.js';

/** An event as the calendar port hands it to plans: the stored event. */
export type EventDoc = StoredEvent;

/**
 * The calendar operations plans use: staging inside a plan's transaction (so execution is all or
 * nothing), busy time for the informative conflicts, and the live announcement after commit.
 */
export interface CalendarPort {
  stageCreate(
    tx: Tx,
    userId: string,
    input: {
      title: string;
      scheduled_for: string;
      duration_minutes: number;
      task_id?: string;
      tag?: string;
      /** A recurring event: its rule, expanded on the wall clock of `timezone`. */
      rrule?: string;
      timezone?: string;
      source?: 'agent';
    },
    actor: string,
    now: Date,
  ): EventDoc;
  stageEdit(tx: Tx, userId: string, uid: string, updates: { scheduled_for?: string; duration_minutes?: number }, actor: string, now: Date): EventDoc;
  busy(userId: string, start: Date, end: Date): readonly { uid?: string; start: string | Date | number; end: string | Date | number }[];
  announce(event: EventDoc, kind: 'created' | 'updated'): void;
  /** A hook run inside every transaction that edits or removes an event (after: undefined). */
  onEdit(hook: (tx: Tx, before: EventDoc, after: EventDoc | undefined, actor: string) => void): void;
}

/** What a planner answers: actions in the Action input shape (validated like an agent's own). */
export interface PlannerProposal {
  actions: unknown[] | ActionInput[];
  reasoning: string;
  provider: string;
  model: string | null;
  /** The task the planner chose, when the request named none. */
  task_id?: string;
}

/** What the plans service asks for a prompt-only plan (the planner service); without one such plans are refused. */
export interface Planner {
  propose(req: { prompt: string; task_id?: string; context: PlanContext; principal: Principal }): Promise<PlannerProposal>;
}
