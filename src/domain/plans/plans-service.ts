import type { StoredTrace } from '../../contracts/memory.js';
import {
  type ActionInput,
  ActionList,
  type ApproveRequest,
  type ExecuteRequest,
  type ExecuteResponse,
  type FeedbackRequest,
  type Plan,
  type PlanRequest,
  type QueueQuery,
  type QueueResponse,
} from '../../contracts/plans.js';
import type { PreferencesInput } from '../../contracts/tempo.js';
import { conflict, type ErrorDetail, notFound, validationFailed } from '../../errors.js';
import type { Store, Tx } from '../../store/store.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { EventBus } from '../live-bus.js';
import type { MemoryService } from '../memory/memory-service.js';
import { stageTrace, stageTraceEdit } from '../memory/stage-trace.js';
import { actorOf, assertOwner, type Principal } from '../principal.js';
import type { TempoService } from '../tempo/tempo-service.js';
import type { UsersService } from '../users/users-service.js';
import { applyEdits, buildActions } from './actions.js';
import { learn, type Observation, observe } from './biases.js';
import { describePlan } from './describe.js';
import { EditedFollower } from './edited.js';
import { type ExecDeps, type Execution, stageExecution } from './executor.js';
import { feedbackObservations, stageFeedback } from './feedback.js';
import { planView, type StoredAction, type StoredPlan } from './plan.js';
import { assertEditsAllowed, assertProposalAllowed, type ConstraintContext } from './plan-constraints.js';
import type { CalendarPort, EventDoc, Planner } from './ports.js';
import { byCreation, queuePage } from './queue-page.js';
import { assertTransition, stageTransition } from './state-machine.js';

export interface PlansDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  memory: MemoryService;
  tempo: TempoService;
  users: UsersService;
  calendar: CalendarPort;
  /** Answers prompt-only proposals; without one they are refused (tests build it so). */
  planner?: Planner;
  logger?: { warn(obj: object | string, msg?: string): void };
}

/** After commit: what to announce on the live bus, in commit order. */
interface Announce {
  traces: { trace: StoredTrace; kind: 'created' | 'updated' }[];
  events: { event: EventDoc; kind: 'created' | 'updated' }[];
  plans: { plan: StoredPlan; type: 'plan.proposed' | 'plan.approved' | 'plan.rejected' | 'plan.executed' | 'plan.edited' }[];
}

/**
 * Agent plans: proposal (an agent's own actions or the planner's), the queue, approval with
 * edits, rejection, atomic execution, feedback, and the `edited` transition when something a plan
 * produced is changed. Every state change goes through the state machine, which records it as a
 * transition trace in the same transaction.
 */
export class PlansService {
  private readonly planner?: Planner;
  private readonly calendar: CalendarPort;
  private readonly edited: EditedFollower;

  constructor(private readonly d: PlansDeps) {
    this.edited = new EditedFollower({
      store: d.store,
      clock: d.clock,
      bus: d.bus,
      announce: (plans, transitions) =>
        this.announce({
          traces: transitions.map((trace) => ({ trace, kind: 'created' })),
          events: [],
          plans: plans.map((plan) => ({ plan, type: 'plan.edited' })),
        }),
      learn: (userId, observations) => this.learnBiases(userId, observations),
    });
    this.planner = d.planner;
    this.calendar = d.calendar;
    d.memory.onEdit((tx, _before, after, actor) => this.edited.stage(tx, 'traces', after.uid, after, actor));
    d.calendar.onEdit((tx, before, after, actor) => this.edited.stage(tx, 'events', before.uid, after, actor));
  }

  private constraintContext(userId: string, now: Date): ConstraintContext {
    const s = this.d.tempo.settings(userId);
    return { rules: { blocked: s.blocked, cadence: s.cadence, budget: s.budget }, timezone: this.zone(userId), now };
  }

  private zone(userId: string): string {
    return this.d.users.get(userId)?.timezone ?? 'UTC';
  }

  private load(tx: Tx | Store, p: Principal, planId: string): StoredPlan {
    const plan = tx.get('plans', planId);
    if (!plan) throw notFound(`No plan ${planId}.`);
    assertOwner(p, plan.user_id);
    return plan;
  }

  private announce(a: Announce): void {
    for (const e of a.events) this.calendar.announce(e.event, e.kind);
    for (const t of a.traces) this.d.memory.announce(t.trace, t.kind);
    for (const p of a.plans) this.d.bus.publish(p.plan.user_id, p.type, planView(p.plan));
  }

  /** Overlapping calendar events of each timed action (informative, shown at review). */
  private withConflicts(userId: string, actions: StoredAction[]): StoredAction[] {
    return actions.map((a) => {
      const { conflicts: _c, ...rest } = a;
      if (a.kind === 'reflect' || a.status === 'rejected' || !(a.duration_minutes > 0)) return rest;
      const start = new Date(a.scheduled_for);
      const end = new Date(start.getTime() + a.duration_minutes * 60_000);
      const uids = [
        ...new Set(
          this.calendar
            .busy(userId, start, end)
            .map((b) => b.uid)
            .filter((u): u is string => Boolean(u) && u !== a.event_uid),
        ),
      ];
      return uids.length ? { ...rest, conflicts: uids } : rest;
    });
  }

  // ------------------------------------------------------------------ proposal

  async propose(p: Principal, req: PlanRequest): Promise<Plan> {
    let inputs: ActionInput[];
    let reasoning = req.reasoning ?? '';
    let source: { provider: string; model: string | null } | undefined;
    let taskId = req.task_id;
    if (req.actions) inputs = req.actions;
    else {
      if (!this.planner) {
        throw validationFailed('No planner is configured: send your own `actions`, or configure a planner.', [
          { path: 'prompt', message: 'no planner is configured' },
        ]);
      }
      const out = await this.planner.propose({ prompt: req.prompt!, task_id: req.task_id, context: req.context ?? {}, principal: p });
      inputs = parseActions(out.actions);
      reasoning = req.reasoning ?? out.reasoning;
      source = { provider: out.provider, model: out.model };
      taskId ??= out.task_id;
    }
    const userId = p.userId;
    const actor = actorOf(p);
    const now = this.d.clock.now();
    const planId = newId('pl', now.getTime());
    const shared = new Set(inputs.map((a) => a.task_id).filter(Boolean));
    const task = taskId ?? (shared.size === 1 && inputs.every((a) => a.task_id) ? [...shared][0]! : planId);
    const zone = this.zone(userId);
    const c = this.constraintContext(userId, now);

    const plan = await this.d.store.transact((tx) => {
      const actions = buildActions(tx, userId, inputs, task, now);
      const warnings = assertProposalAllowed(tx, userId, p.agentId, actions, c);
      const draft = {
        plan_id: planId,
        user_id: userId,
        task_id: task,
        status: 'proposed' as const,
        prompt: req.prompt ?? null,
        agent_id: p.agentId,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        edited: false,
        reasoning,
        actions: this.withConflicts(userId, actions).map((a, i) => (warnings.has(i) ? { ...a, warnings: warnings.get(i)! } : a)),
        ...(source ? { provider: source.provider, model: source.model } : {}),
      };
      const trace = stageTrace(
        tx,
        {
          user_id: userId,
          type: 'agent_plan',
          task_id: task,
          content: describePlan(draft, zone),
          actor,
          fields: { plan_id: planId, agent_id: p.agentId, action_ids: actions.map((a) => a.action_id) },
        },
        now,
      );
      const stored: StoredPlan = { ...draft, trace_uid: trace.uid };
      tx.put('plans', stored);
      return { stored, trace };
    });
    this.announce({ traces: [{ trace: plan.trace, kind: 'created' }], events: [], plans: [{ plan: plan.stored, type: 'plan.proposed' }] });
    return planView(plan.stored);
  }

  // ------------------------------------------------------------------ reading

  /** A page of the user's plans by status, oldest first (queue-page.ts). */
  queue(p: Principal, q: QueueQuery): QueueResponse {
    return queuePage(this.d.store, p.userId, q);
  }

  get(p: Principal, planId: string): Plan {
    return planView(this.load(this.d.store, p, planId));
  }

  // ------------------------------------------------------------------ decisions

  async approve(p: Principal, req: ApproveRequest): Promise<Plan & { execution?: ExecuteResponse }> {
    const actor = actorOf(p);
    const now = this.d.clock.now();
    const observations: Observation[] = [];
    const out = await this.d.store.transact((tx) => {
      const plan = this.load(tx, p, req.plan_id);
      assertTransition(plan, 'approved');
      const a: Announce = { traces: [], events: [], plans: [] };
      let actions = plan.actions;
      let edited = plan.edited;
      if (req.actions?.length) {
        const r = applyEdits(plan.actions, req.actions);
        const paths = new Map(req.actions.map((e, j) => [e.action_id, `actions.${j}`]));
        assertEditsAllowed(tx, plan, r.actions, r.changed, this.constraintContext(plan.user_id, now), paths);
        actions = this.withConflicts(plan.user_id, r.actions);
        edited = edited || r.actions.some((x) => x.edited);
        for (const x of r.actions) {
          if (x.edited && x.original && x.duration_minutes !== x.original.duration_minutes) {
            const o = observe(x, x.duration_minutes);
            if (o) observations.push(o);
          }
        }
      }
      const changedCount = actions.filter((x) => x.edited).length;
      const moved = stageTransition(tx, plan, 'approved', {
        actor,
        now,
        ...(changedCount ? { reason: `${changedCount} action${changedCount === 1 ? '' : 's'} edited` } : {}),
        patch: { actions, edited, approved_at: now.toISOString() },
      });
      if (changedCount) {
        // The proposal's trace follows the edit, so its history shows what the person changed.
        const t = stageTraceEdit(tx, plan.trace_uid, { content: describePlan(moved.plan, this.zone(plan.user_id)) }, actor, now);
        a.traces.push({ trace: t, kind: 'updated' });
      }
      a.traces.push({ trace: moved.trace, kind: 'created' });
      a.plans.push({ plan: moved.plan, type: 'plan.approved' });
      let execution: Execution | undefined;
      if (req.execute) {
        execution = stageExecution(tx, moved.plan, this.execDeps(plan.user_id, actor, now));
        a.traces.push(...execution.traces);
        a.events.push(...execution.events);
        a.plans.push({ plan: execution.plan, type: 'plan.executed' });
      }
      return { plan: execution?.plan ?? moved.plan, execution, a };
    });
    this.announce(out.a);
    await this.learnBiases(out.plan.user_id, observations);
    return {
      ...planView(out.plan),
      ...(out.execution
        ? { execution: { plans: [planView(out.execution.plan)], log: out.execution.log, results: out.execution.results, simulated: false } }
        : {}),
    };
  }

  async reject(p: Principal, req: { plan_id: string; reason?: string }): Promise<Plan> {
    const actor = actorOf(p);
    const now = this.d.clock.now();
    const moved = await this.d.store.transact((tx) => {
      const plan = this.load(tx, p, req.plan_id);
      return stageTransition(tx, plan, 'rejected', {
        actor,
        now,
        ...(req.reason ? { reason: req.reason } : {}),
        patch: { rejected_at: now.toISOString(), ...(req.reason ? { reason: req.reason } : {}) },
      });
    });
    this.announce({ traces: [{ trace: moved.trace, kind: 'created' }], events: [], plans: [{ plan: moved.plan, type: 'plan.rejected' }] });
    return planView(moved.plan);
  }

  private execDeps(userId: string, actor: string, now: Date): ExecDeps {
    return {
      calendar: () => this.calendar,
      actor,
      now,
      timezone: this.zone(userId),
      eventEdited: (tx, after, by) => this.edited.stage(tx, 'events', after.uid, after, by),
    };
  }

  /**
   * Execute one approved plan, or every approved plan of a task, in one transaction. With
   * `simulate` the same work runs against a throwaway view of the store: the answer shows
   * exactly what would change, and nothing is written (a proposed plan is simulated as approved).
   */
  async execute(p: Principal, req: ExecuteRequest): Promise<ExecuteResponse> {
    const actor = actorOf(p);
    const now = this.d.clock.now();
    const simulate = Boolean(req.simulate);
    const run = (tx: Tx) => {
      const targets = this.targets(tx, p, req, simulate);
      return targets.map((plan) => {
        const pre: Execution['log'] = [];
        let approved = plan;
        const traces: Execution['traces'] = [];
        if (plan.status === 'proposed') {
          const moved = stageTransition(tx, plan, 'approved', { actor, now, reason: 'simulated approval', patch: { approved_at: now.toISOString() } });
          approved = moved.plan;
          traces.push({ trace: moved.trace, kind: 'created' });
          pre.push({ plan_id: plan.plan_id, message: `plan ${plan.plan_id} is proposed: it would be approved first` });
        }
        const e = stageExecution(tx, approved, this.execDeps(plan.user_id, actor, now));
        return { ...e, log: [...pre, ...e.log], traces: [...traces, ...e.traces] };
      });
    };
    const execs = simulate ? this.d.store.simulate(run) : await this.d.store.transact(run);
    if (!simulate) {
      for (const e of execs) this.announce({ traces: e.traces, events: e.events, plans: [{ plan: e.plan, type: 'plan.executed' }] });
    }
    return {
      plans: execs.map((e) => planView(e.plan)),
      log: execs.flatMap((e) => (simulate ? e.log.map((l) => ({ ...l, message: `(simulated) ${l.message}` })) : e.log)),
      results: execs.flatMap((e) => e.results),
      simulated: simulate,
    };
  }

  private targets(tx: Tx, p: Principal, req: ExecuteRequest, simulate: boolean): StoredPlan[] {
    const ready = (s: StoredPlan['status']) => s === 'approved' || (simulate && s === 'proposed');
    if (req.plan_id !== undefined) {
      const plan = this.load(tx, p, req.plan_id);
      if (!ready(plan.status)) assertTransition(plan, 'executed');
      return [plan];
    }
    const ofTask = tx
      .byIndex('plans', 'task_id', req.task_id!)
      .filter((x) => x.user_id === p.userId)
      .sort(byCreation);
    if (!ofTask.length) throw notFound(`No plan for task ${req.task_id}.`);
    const todo = ofTask.filter((x) => ready(x.status));
    if (!todo.length) {
      const states = ofTask.map((x) => `${x.plan_id} is ${x.status}`).join(', ');
      throw conflict(`Task ${req.task_id} has no approved plan to execute (${states}).`, 'invalid_transition', [
        { path: 'task_id', message: 'no approved plan' },
      ]);
    }
    return todo;
  }

  // ------------------------------------------------------------------ feedback

  /**
   * Feedback on a trace or a plan (its agent_plan trace): the rating and comment go on the trace,
   * a feedback trace logs the whole of it, and duration evidence teaches the tempo profile.
   */
  async feedback(p: Principal, req: FeedbackRequest): Promise<StoredTrace> {
    const actor = actorOf(p);
    const now = this.d.clock.now();
    const out = await this.d.store.transact((tx) => stageFeedback(tx, p, req, actor, now));
    this.announce({
      traces: [...(out.changed ? [{ trace: out.target, kind: 'updated' as const }] : []), { trace: out.log, kind: 'created' }],
      events: [],
      plans: [],
    });
    if (out.plan) await this.learnBiases(out.target.user_id, feedbackObservations(this.d.store, out.plan, out.action, req));
    return out.target;
  }

  private async learnBiases(userId: string, observations: readonly Observation[]): Promise<void> {
    if (!observations.length) return;
    const next = learn(this.d.tempo.settings(userId).duration_biases, observations);
    if (!Object.keys(next).length) return;
    try {
      await this.d.tempo.adjust(userId, { duration_biases: next } as PreferencesInput);
    } catch (e) {
      // Learning is a side effect: the person's decision already committed.
      this.d.logger?.warn({ err: String(e), userId }, 'could not update duration biases');
    }
  }
}

/** A planner's actions, validated exactly like an agent's own (422 plan_invalid). */
function parseActions(raw: unknown): ActionInput[] {
  const r = ActionList.safeParse(raw);
  if (r.success) return r.data;
  const details: ErrorDetail[] = r.error.issues.map((i) => ({ path: ['actions', ...i.path].join('.'), message: i.message }));
  throw validationFailed(`The planner proposed an invalid plan: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}.`, details, 'plan_invalid');
}
