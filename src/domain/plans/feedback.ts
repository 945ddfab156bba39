import type { StoredTrace } from '../../contracts/memory.js';
import type { FeedbackRequest } from '../../contracts/plans.js';
import { conflict, notFound, validationFailed } from '../../errors.js';
import type { Store, Tx } from '../../store/store.js';
import { eventReads } from '../calendar/event-reads.js';
import { stageTrace, stageTraceEdit } from '../memory/stage-trace.js';
import { traceReads } from '../memory/traces.js';
import { assertOwner, type Principal } from '../principal.js';
import { type Observation, observe } from './biases.js';
import { liveActions, type StoredAction, type StoredPlan } from './plan.js';

/**
 * The action feedback is about: the one a revision names, the one that produced the trace, or —
 * for a revision of a duration on the whole plan — its first action with a duration.
 */
export function pickAction(plan: StoredPlan, req: FeedbackRequest, trace: StoredTrace): StoredAction | undefined {
  const named = typeof req.revision === 'object' ? req.revision.action_id : undefined;
  if (named !== undefined) {
    const a = plan.actions.find((x) => x.action_id === named);
    if (!a)
      throw validationFailed(`Plan ${plan.plan_id} has no action ${named}.`, [{ path: 'revision.action_id', message: `not an action of ${plan.plan_id}` }]);
    return a;
  }
  const producedBy = trace.fields?.action_id;
  if (typeof producedBy === 'string') return plan.actions.find((x) => x.action_id === producedBy);
  if (typeof req.revision === 'object' && req.revision.duration_minutes !== undefined) return liveActions(plan).find((x) => x.kind !== 'reflect');
  return undefined;
}

/** The content of the trace that logs a piece of feedback. */
export function feedbackSentence(trace: StoredTrace, plan: StoredPlan | undefined, req: FeedbackRequest): string {
  const on = plan ? `plan ${plan.plan_id} (${trace.type} ${trace.uid})` : `${trace.type} ${trace.uid}`;
  const parts = [`Feedback on ${on}:`];
  if (req.rating !== undefined) parts.push(`rated ${req.rating}/5.`);
  if (req.comment !== undefined) parts.push(`“${req.comment}”.`);
  if (typeof req.revision === 'string') parts.push(`Revision: ${req.revision}`);
  else if (req.revision) {
    const r = req.revision;
    const bits = [
      r.duration_minutes !== undefined ? `${r.duration_minutes} min` : undefined,
      r.title !== undefined ? `title “${r.title}”` : undefined,
      r.scheduled_for !== undefined ? `at ${r.scheduled_for}` : undefined,
      r.content !== undefined ? `content “${r.content}”` : undefined,
      r.text,
    ].filter(Boolean);
    parts.push(`Revision${r.action_id ? ` of ${r.action_id}` : ''}: ${bits.join(', ') || '(empty)'}.`);
  }
  return parts.join(' ');
}

export interface StagedFeedback {
  /** The rated trace, as it is after the feedback. */
  target: StoredTrace;
  /** The trace that logs the feedback. */
  log: StoredTrace;
  changed: boolean;
  plan?: StoredPlan;
  action?: StoredAction;
}

/**
 * Stage feedback on a trace or a plan (its agent_plan trace): the rating and comment on the trace,
 * the whole feedback logged as an observation linked to it. Transition traces take none (409).
 */
export function stageFeedback(tx: Tx, p: Principal, req: FeedbackRequest, actor: string, now: Date): StagedFeedback {
  let plan = tx.get('plans', req.uid);
  let trace: StoredTrace | undefined;
  if (plan) {
    assertOwner(p, plan.user_id);
    trace = traceReads(tx).get(plan.trace_uid);
    if (!trace) throw notFound(`The trace of plan ${plan.plan_id} is gone.`);
  } else {
    trace = traceReads(tx).get(req.uid);
    if (!trace) throw notFound(`No trace or plan ${req.uid}.`);
    assertOwner(p, trace.user_id);
    const planId = trace.fields?.plan_id;
    if (typeof planId === 'string' && trace.type !== 'transition') plan = tx.get('plans', planId);
  }
  if (trace.type === 'transition')
    throw conflict(`Trace ${trace.uid} records a plan transition and cannot take feedback; give it on the plan instead.`, 'immutable_trace');
  const action = plan ? pickAction(plan, req, trace) : undefined;
  const updates = {
    ...(req.rating !== undefined ? { feedback_rating: req.rating } : {}),
    ...(req.comment !== undefined ? { notes: req.comment } : {}),
  };
  const target = Object.keys(updates).length ? stageTraceEdit(tx, trace.uid, updates, actor, now) : trace;
  const log = stageTrace(
    tx,
    {
      user_id: trace.user_id,
      type: 'observation',
      task_id: trace.task_id,
      content: feedbackSentence(trace, plan, req),
      actor,
      linked_trace_ids: [trace.uid],
      fields: {
        feedback: {
          target_uid: trace.uid,
          ...(plan ? { plan_id: plan.plan_id } : {}),
          ...(action ? { action_id: action.action_id } : {}),
          ...(req.rating !== undefined ? { rating: req.rating } : {}),
          ...(req.comment !== undefined ? { comment: req.comment } : {}),
          ...(req.revision !== undefined ? { revision: req.revision } : {}),
        },
      },
    },
    now,
  );
  return { target, log, changed: target !== trace, ...(plan ? { plan } : {}), ...(action ? { action } : {}) };
}

/**
 * Duration evidence in feedback on a plan: a revised duration, or a good rating (4–5) without one,
 * which confirms the durations booked (as the events stand now). A rating alone says nothing else.
 */
export function feedbackObservations(store: Store, plan: StoredPlan, action: StoredAction | undefined, req: FeedbackRequest): Observation[] {
  const revised = typeof req.revision === 'object' ? req.revision.duration_minutes : undefined;
  const out: Observation[] = [];
  if (revised !== undefined) {
    const o = action ? observe(action, revised) : undefined;
    if (o) out.push(o);
  } else if (req.rating !== undefined && req.rating >= 4) {
    for (const a of action ? [action] : liveActions(plan)) {
      const made = plan.produced?.find((x) => x.action_id === a.action_id && x.collection === 'events');
      const ev = made ? eventReads(store).get(made.uid) : undefined;
      const o = observe(a, ev?.duration_minutes ?? a.duration_minutes);
      if (o) out.push(o);
    }
  }
  return out;
}
