import { type LocalDate, WEEKDAYS, weekdayOf } from '../../time/local-date.js';
import type { Placer } from './place.js';
import type { ActionNotes, PlannerInput, ProposedAction } from './types.js';

/** What every part of the planner reads while it plans one prompt. */
export interface Ctx {
  input: PlannerInput;
  /** The normalized prompt. */
  text: string;
  zone: string;
  now: number;
  today: LocalDate;
  placer: Placer;
  penalty: number;
}

export interface Result {
  action: ProposedAction;
  notes: ActionNotes;
}

/** What planning one request gives: its actions, or why it has none ('' = say nothing). */
export type Outcome = { results: Result[] } | { skip: string };

export const MINUTE = 60_000;
export const weekdayIdx = (d: LocalDate) => WEEKDAYS.indexOf(weekdayOf(d));
const round2 = (n: number) => Math.round(n * 100) / 100;
export const clamp = (n: number) => round2(Math.min(0.99, Math.max(0.05, n)));
export const quote = (s: string) => `"${s.trim()}"`;
