import type { StoredTrace } from '../../contracts/memory.js';
import type { ActionResult, ExecutionLogEntry } from '../../contracts/plans.js';
import { AppError } from '../../errors.js';
import type { Tx } from '../../store/store.js';
import { describeRrule } from '../../time/repeat.js';
import { eventReads } from '../calendar/event-reads.js';
import { stageTrace, stageTraceEdit } from '../memory/stage-trace.js';
import { traceReads } from '../memory/traces.js';
import { describeAction, localWhen } from './describe.js';
import { liveActions, type Produced, type StoredAction, type StoredPlan } from './plan.js';
import type { CalendarPort, EventDoc } from './ports.js';
import { fingerprint } from './produced.js';
import { stageTransition } from './state-machine.js';

export interface ExecDeps {
  /** Asked for only when an action touches the calendar. */
  calendar: () => CalendarPort;
  actor: string;
  now: Date;
  timezone: string;
  /** Told of every event a reschedule changed: another executed plan may have produced it. */
  eventEdited?: (tx: Tx, after: EventDoc, actor: string) => void;
}

/** What an execution staged, for the response and for the live events sent after commit. */
export interface Execution {
  plan: StoredPlan;
  results: ActionResult[];
  log: ExecutionLogEntry[];
  traces: { trace: StoredTrace; kind: 'created' | 'updated' }[];
  events: { event: EventDoc; kind: 'created' | 'updated' }[];
}

/**
 * A failing action names itself, so the person sees which one stopped the plan. Something the
 * plan relies on having disappeared (404) means the plan no longer applies: 409 conflict.
 */
function withAction(e: unknown, plan: StoredPlan, a: StoredAction, i: number): unknown {
  if (!(e instanceof AppError) || e.status >= 500) return e;
  const details = (e.details ?? [{ path: '', message: e.message }]).map((d) => ({ ...d, path: `plan.actions.${i}${d.path ? `.${d.path}` : ''}` }));
  const [status, code] = e.status === 404 ? [409, 'conflict'] : [e.status, e.code];
  return new AppError(status, code, `Plan ${plan.plan_id} cannot be executed: action ${a.action_id} (${a.kind}) failed: ${e.message} Nothing was changed.`, {
    details,
  });
}

/**
 * Execute an approved plan inside `tx`: every live action is staged (events created or moved,
 * reflections written), the agent_plan trace is linked to what was produced, and the plan moves
 * to `executed` with its transition trace. Any failure throws, and the caller's transaction
 * discards everything: all actions commit or none do.
 */
export function stageExecution(tx: Tx, plan: StoredPlan, d: ExecDeps): Execution {
  const { actor, now, timezone } = d;
  const results: ActionResult[] = [];
  const log: ExecutionLogEntry[] = [];
  const traces: Execution['traces'] = [];
  const events: Execution['events'] = [];
  const produced: Produced[] = [];
  const childTraces: string[] = [];
  const eventUids: string[] = [];
  const actions = plan.actions.map((a) => ({ ...a }));
  const say = (message: string, action_id?: string) => log.push({ plan_id: plan.plan_id, ...(action_id ? { action_id } : {}), message });

  const live = liveActions(plan);
  say(`executing plan ${plan.plan_id} (${live.length} action${live.length === 1 ? '' : 's'})`);
  actions.forEach((a, i) => {
    if (a.status === 'rejected') {
      say(`skipped ${a.action_id}: left out at approval`, a.action_id);
      return;
    }
    try {
      if (a.kind === 'reflect') {
        const t = stageTrace(
          tx,
          {
            user_id: plan.user_id,
            type: 'reflection',
            task_id: a.task_id,
            content: a.content ?? a.title,
            actor,
            timestamp: a.scheduled_for,
            ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
            linked_trace_ids: [plan.trace_uid],
            fields: { plan_id: plan.plan_id, action_id: a.action_id },
          },
          now,
        );
        traces.push({ trace: t, kind: 'created' });
        childTraces.push(t.uid);
        produced.push({ action_id: a.action_id, collection: 'traces', uid: t.uid, fingerprint: fingerprint(t) });
        actions[i] = { ...a, trace_uid: t.uid };
        results.push({ plan_id: plan.plan_id, action_id: a.action_id, kind: a.kind, trace: t as ActionResult['trace'] });
        say(`wrote reflection ${t.uid} “${a.title}”`, a.action_id);
        return;
      }
      let ev: EventDoc;
      let before: EventDoc | undefined;
      if (a.kind === 'add_event') {
        ev = d.calendar().stageCreate(
          tx,
          plan.user_id,
          {
            title: a.title,
            scheduled_for: a.scheduled_for,
            duration_minutes: a.duration_minutes,
            task_id: a.task_id,
            ...(a.tempo_tag ? { tag: a.tempo_tag } : {}),
            // A repetition keeps its local time in the user's zone (07:00 stays 07:00 across DST).
            ...(a.rrule ? { rrule: a.rrule, timezone } : {}),
            source: 'agent',
          },
          actor,
          now,
        );
        events.push({ event: ev, kind: 'created' });
        say(
          `created event ${ev.uid} “${ev.title}” on ${localWhen(ev.scheduled_for, timezone)} ${timezone} for ${ev.duration_minutes} min${ev.rrule ? `, repeating ${describeRrule(ev.rrule, timezone)}` : ''}`,
          a.action_id,
        );
      } else {
        before = eventReads(tx).get(a.event_uid!);
        ev = d.calendar().stageEdit(tx, plan.user_id, a.event_uid!, { scheduled_for: a.scheduled_for, duration_minutes: a.duration_minutes }, actor, now);
        d.eventEdited?.(tx, ev, actor);
        events.push({ event: ev, kind: 'updated' });
        say(
          `moved event ${ev.uid} “${ev.title}” from ${before ? `${localWhen(before.scheduled_for, timezone)} (${before.duration_minutes} min)` : '?'} to ${localWhen(ev.scheduled_for, timezone)} ${timezone} (${ev.duration_minutes} min)`,
          a.action_id,
        );
      }
      eventUids.push(ev.uid);
      produced.push({ action_id: a.action_id, collection: 'events', uid: ev.uid, fingerprint: fingerprint(ev) });
      // The memory side of the event: a calendar_event trace under the plan's trace.
      const record = stageTrace(
        tx,
        {
          user_id: plan.user_id,
          type: 'calendar_event',
          task_id: a.task_id,
          content: `${a.kind === 'add_event' ? 'Scheduled' : 'Rescheduled'} by plan ${plan.plan_id}: ${describeAction(a, timezone)}.`,
          actor,
          timestamp: ev.scheduled_for,
          ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
          linked_trace_ids: [plan.trace_uid],
          linked_event_uid: ev.uid,
          fields: { plan_id: plan.plan_id, action_id: a.action_id },
        },
        now,
      );
      traces.push({ trace: record, kind: 'created' });
      childTraces.push(record.uid);
      actions[i] = { ...a, event_uid: ev.uid };
      results.push({
        plan_id: plan.plan_id,
        action_id: a.action_id,
        kind: a.kind,
        event: ev as ActionResult['event'],
        ...(before ? { before: before as ActionResult['before'] } : {}),
        trace: record as ActionResult['trace'],
      });
    } catch (e) {
      throw withAction(e, plan, a, i);
    }
  });

  const planTrace = traceReads(tx).get(plan.trace_uid);
  if (planTrace) {
    const linked = stageTraceEdit(
      tx,
      plan.trace_uid,
      {
        ...(eventUids.length ? { linked_event_uid: eventUids[0]! } : {}),
        child_trace_ids: [...new Set([...planTrace.child_trace_ids, ...childTraces])],
        fields: { ...planTrace.fields, event_uids: eventUids, child_trace_ids: childTraces },
      },
      actor,
      now,
    );
    traces.push({ trace: linked, kind: 'updated' });
  }
  const moved = stageTransition(tx, plan, 'executed', {
    actor,
    now,
    reason: `${results.length} action${results.length === 1 ? '' : 's'} committed`,
    patch: { actions, produced, executed_at: now.toISOString() },
  });
  traces.push({ trace: moved.trace, kind: 'created' });
  say(`plan ${plan.plan_id} is executed`);
  return { plan: moved.plan, results, log, traces, events };
}
