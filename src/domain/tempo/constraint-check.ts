import type { ActionKind, Blocked, Budget, Cadence } from '../../contracts/tempo.js';
import type { ErrorDetail } from '../../errors.js';
import { formatHHMM } from '../../time/local-date.js';
import { dayPeriod, isoWeekPeriod, type Period, toZoned } from '../../time/zoned-time.js';
import { blockedIntervals } from './blocked-intervals.js';

/**
 * The constraint checker: pure, so the agent area can call it at proposal time and the planner
 * before it proposes. The caller supplies everything (profile, zone, the actions already counted,
 * "now"); nothing here reads the store.
 */

/** The constraint part of a tempo profile. */
export interface ConstraintRules {
  blocked: readonly Blocked[];
  cadence: Cadence;
  budget: Budget;
}

/** An action an agent wants to propose. */
export interface CandidateAction {
  kind: ActionKind;
  scheduled_for: string | Date;
  duration_minutes: number;
  agent_id?: string | null;
  /** The rescheduled event (reschedule_event): per-event cadence counts by it. */
  event_uid?: string | null;
}

/** An action already in some plan: it counts towards cadence (by `proposed_at`) and budgets (by `scheduled_for`). */
export interface CountedAction extends CandidateAction {
  status: 'proposed' | 'approved' | 'executed' | 'edited' | 'rejected';
  /** When its plan was proposed. */
  proposed_at: string | Date;
}

export interface CheckInput {
  rules: ConstraintRules;
  /** The user's IANA zone: days and ISO weeks are local to it. */
  timezone: string;
  /** The moment of the proposal: cadence counts proposals in its day or week. */
  now: Date;
  /** Actions already proposed, approved, executed, edited or rejected (rejected ones count only for cadence). */
  actions: readonly CountedAction[];
}

export type Violation =
  | {
      rule: 'blocked_slot';
      message: string;
      /** The blocked stretch the action overlaps (UTC). */
      start: string;
      end: string;
      overlap_minutes: number;
      label?: string;
    }
  | {
      rule: 'cadence';
      message: string;
      kind: ActionKind;
      per: 'day' | 'week';
      period: string;
      max: number;
      count: number;
      event_uid?: string;
    }
  | {
      rule: 'budget_day' | 'budget_week';
      message: string;
      period: string;
      limit: number;
      count: number;
      agent_id?: string;
    };

export interface CheckResult {
  ok: boolean;
  violations: Violation[];
}

const MINUTE = 60_000;
const ms = (v: string | Date) => (typeof v === 'string' ? Date.parse(v) : v.getTime());
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function localStamp(t: number, zone: string): string {
  const z = toZoned(t, zone);
  return `${z.weekday} ${z.year}-${String(z.month).padStart(2, '0')}-${String(z.day).padStart(2, '0')} ${formatHHMM(z.hour * 60 + z.minute)}`;
}

/** `mon 2025-03-10 12:00–13:00`, or both stamps in full when the span ends on another day. */
function span(start: number, end: number, zone: string): string {
  const a = localStamp(start, zone);
  const b = localStamp(end, zone);
  return a.slice(0, -5) === b.slice(0, -5) ? `${a}–${b.slice(-5)}` : `${a} – ${b}`;
}

function blockedViolations(c: CandidateAction, input: CheckInput): Violation[] {
  const start = ms(c.scheduled_for);
  const end = start + Math.max(0, c.duration_minutes) * MINUTE;
  // A zero-length action (a reflection) is a point in time: blocked when the point is.
  const probeEnd = end > start ? end : start + 1;
  return blockedIntervals(input.rules.blocked, input.timezone, start, probeEnd).map((b) => {
    const overlap = Math.min(end, b.end) - Math.max(start, b.start);
    const label = b.block.label ? ` (${b.block.label})` : '';
    return {
      rule: 'blocked_slot' as const,
      message: `${span(b.start, b.end, input.timezone)} is blocked${label} (${input.timezone})`,
      start: new Date(b.start).toISOString(),
      end: new Date(b.end).toISOString(),
      overlap_minutes: Math.max(0, Math.round(overlap / MINUTE)),
      ...(b.block.label ? { label: b.block.label } : {}),
    };
  });
}

const periodOf = (per: 'day' | 'week', t: number, zone: string): Period => (per === 'day' ? dayPeriod(t, zone) : isoWeekPeriod(t, zone));
const within = (t: number, p: Period) => t >= p.start.getTime() && t < p.end.getTime();

function cadenceViolations(c: CandidateAction, input: CheckInput): Violation[] {
  const rule = input.rules.cadence[c.kind];
  if (!rule) return [];
  const perEvent = Boolean(rule.per_event && c.event_uid);
  const period = periodOf(rule.per, input.now.getTime(), input.timezone);
  // Every proposal counts, rejected or not: the rule limits how often agents ask.
  const count = input.actions.filter((a) => a.kind === c.kind && within(ms(a.proposed_at), period) && (!perEvent || a.event_uid === c.event_uid)).length;
  if (count < rule.max) return [];
  const scope = perEvent ? ` for event ${c.event_uid}` : '';
  return [
    {
      rule: 'cadence',
      message: `${c.kind} may be proposed at most ${plural(rule.max, 'time')} per ${rule.per}${scope}; ${count} already proposed in ${period.key}`,
      kind: c.kind,
      per: rule.per,
      period: period.key,
      max: rule.max,
      count,
      ...(perEvent ? { event_uid: c.event_uid! } : {}),
    },
  ];
}

function budgetViolations(c: CandidateAction, input: CheckInput): Violation[] {
  const { budget } = input.rules;
  const at = ms(c.scheduled_for);
  const live = input.actions.filter((a) => a.status !== 'rejected');
  const out: Violation[] = [];
  const limits: { limit: number | undefined; agent?: string; per: 'day' | 'week' }[] = [
    { limit: budget.per_day, per: 'day' },
    { limit: budget.per_week, per: 'week' },
  ];
  const agentLimits = c.agent_id ? budget.per_agent?.[c.agent_id] : undefined;
  if (agentLimits)
    limits.push({ limit: agentLimits.per_day, agent: c.agent_id!, per: 'day' }, { limit: agentLimits.per_week, agent: c.agent_id!, per: 'week' });
  for (const { limit, agent, per } of limits) {
    if (limit === undefined) continue;
    const period = periodOf(per, at, input.timezone);
    const count = live.filter((a) => within(ms(a.scheduled_for), period) && (agent === undefined || a.agent_id === agent)).length;
    if (count < limit) continue;
    const who = agent ? `agent ${agent}` : 'agents';
    out.push({
      rule: per === 'day' ? 'budget_day' : 'budget_week',
      message: `${who} may schedule at most ${plural(limit, 'action')} per ${per}; ${count} already scheduled in ${period.key}`,
      period: period.key,
      limit,
      count,
      ...(agent ? { agent_id: agent } : {}),
    });
  }
  return out;
}

/** Is `candidate` allowed? Every violated rule is listed, with its numbers. */
export function checkAction(candidate: CandidateAction, input: CheckInput): CheckResult {
  if (!Number.isFinite(ms(candidate.scheduled_for))) throw new TypeError('candidate.scheduled_for is not a date');
  const violations = [...blockedViolations(candidate, input), ...cadenceViolations(candidate, input), ...budgetViolations(candidate, input)];
  return { ok: violations.length === 0, violations };
}

export interface PlanCheckResult {
  ok: boolean;
  /** One entry per candidate, in order. */
  results: CheckResult[];
  /** Every violation, with the index of its action. */
  violations: (Violation & { action_index: number })[];
}

/**
 * Check the actions of one plan: each is checked as if the earlier ones of the same plan were
 * already proposed, so a plan of three reflections under a one-a-day cadence fails on the second.
 */
export function checkPlan(candidates: readonly CandidateAction[], input: CheckInput): PlanCheckResult {
  const counted: CountedAction[] = [...input.actions];
  const results = candidates.map((c) => {
    const r = checkAction(c, { ...input, actions: counted });
    counted.push({ ...c, status: 'proposed', proposed_at: input.now });
    return r;
  });
  const violations = results.flatMap((r, i) => r.violations.map((v) => ({ ...v, action_index: i })));
  return { ok: violations.length === 0, results, violations };
}

/** Violations as the `details` of 422 `constraint_violation` (`path` names the action). */
export function violationDetails(violations: readonly (Violation & { action_index?: number })[]): ErrorDetail[] {
  return violations.map(({ action_index, ...v }) => ({
    ...v,
    path: `${action_index === undefined ? '' : `actions.${action_index}.`}${v.rule === 'cadence' ? 'kind' : 'scheduled_for'}`,
  }));
}
