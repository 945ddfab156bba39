import type { ActionKind, Blocked, Budget, Cadence, DurationBias, TimeRange } from '../../contracts/tempo.js';
import type { CountedAction } from '../tempo/constraint-check.js';

/** An event (or one occurrence of a series) on the user's calendar, as the planner sees it. */
export interface CalendarItem {
  uid: string;
  title: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  task_id?: string | null;
  /** The series this occurrence belongs to (its uid is what a reschedule names). */
  occurrence_of?: string;
  recurrence_id?: string;
  /** False for busy time the client only told about (context.calendar): it cannot be moved. */
  movable?: boolean;
}

/** What a rejected plan ruled out for its task's next proposals (read from its reason). */
export interface Avoidance {
  task_id: string;
  plan_id: string;
  reason: string;
  /** Weekdays, 0 = Monday. */
  weekdays: number[];
  /** Stretches of the local day, minutes after midnight, `[from, to)`. */
  hours: { from: number; to: number }[];
  /** The rejected times themselves (epoch ms). */
  slots: { start: number; end: number }[];
}

/** The parts of the tempo profile the planner reads. */
export interface PlannerProfile {
  time_ranges: Readonly<Record<string, TimeRange>>;
  tag_mappings: Readonly<Record<string, string>>;
  duration_biases: Readonly<Record<string, DurationBias>>;
  blocked: readonly Blocked[];
  cadence: Cadence;
  budget: Budget;
}

/** Everything the deterministic planner needs; nothing else is read, so tests fix all of it. */
export interface PlannerInput {
  prompt: string;
  now: Date;
  /** IANA zone: dates and times in the prompt are local to it. */
  timezone: string;
  profile: PlannerProfile;
  /** The calendar around now: busy time for free-slot search, and the events a reschedule can name. */
  calendar: readonly CalendarItem[];
  /** Actions already in plans: budgets count them. */
  counted?: readonly CountedAction[];
  agentId?: string | null;
  /** What rejections said about time, per task: a free-slot search for that task avoids it. */
  avoid?: readonly Avoidance[];
  /** Every action gets this task id when given. */
  taskId?: string;
}

/** One proposed action, in the SPEC §4 Action shape without `action_id`/`status`. */
export interface ProposedAction {
  kind: ActionKind;
  task_id: string;
  title: string;
  scheduled_for: string;
  duration_minutes: number;
  estimate_minutes: number;
  tempo_tag?: string;
  /** add_event: one recurring event by this RFC 5545 RRULE, from scheduled_for in the user's zone. */
  rrule?: string;
  event_uid?: string;
  content?: string;
  reasoning: string;
  confidence: number;
}

/** What the planner noticed about an action besides its reasoning (for previews and replies). */
export interface ActionNotes {
  /** Events the action overlaps (an explicit time is kept anyway). */
  conflicts: string[];
  /** Problems the plan will hit, e.g. blocked time named explicitly. */
  warnings: string[];
  /** The local start, e.g. "Tue 2026-03-10 15:00". */
  local: string;
  /** The placement rule that decided the time. */
  rule: PlacementRule;
}

export type PlacementRule = 'explicit_time' | 'tag_range' | 'free_slot' | 'recurrence' | 'shift' | 'relative_time';

export interface PlannerOutput {
  actions: ProposedAction[];
  /** Parallel to `actions`. */
  notes: ActionNotes[];
  /** A sentence or two for a person: what was planned, or why nothing was. */
  reply: string;
  /** Requests the planner understood but could not place, with the reason. */
  skipped: { text: string; reason: string }[];
  /** Overall reasoning of the plan. */
  reasoning: string;
}
