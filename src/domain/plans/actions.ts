import { isDeepStrictEqual } from 'node:util';
import { ACTION_READ_ONLY, type ActionEdit, type ActionInput } from '../../contracts/plans.js';
import { type ErrorDetail, validationFailed } from '../../errors.js';
import type { Tx } from '../../store/store.js';
import { canonicalRrule } from '../../time/rrule.js';
import { tagMinutes } from '../../time/tags.js';
import { eventReads } from '../calendar/event-reads.js';
import { newId } from '../ids.js';
import type { StoredAction } from './plan.js';

const planInvalid = (details: ErrorDetail[]) =>
  validationFailed(`The plan is invalid: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}.`, details, 'plan_invalid');

/** A short title from a reflection's text. */
function titleOf(content: string): string {
  const line = content.split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

const ORDER = [
  'action_id',
  'kind',
  'task_id',
  'title',
  'scheduled_for',
  'duration_minutes',
  'estimate_minutes',
  'tempo_tag',
  'rrule',
  'event_uid',
  'content',
  'reasoning',
  'confidence',
  'status',
];

/** The SPEC's field order, so stored plans read like the contract. */
function ordered(a: StoredAction): StoredAction {
  const out: Record<string, unknown> = {};
  for (const k of ORDER) if ((a as Record<string, unknown>)[k] !== undefined) out[k] = (a as Record<string, unknown>)[k];
  return { ...out, ...a } as StoredAction;
}

/**
 * Turn validated action inputs into stored actions: ids, defaults, UTC times. The events that
 * reschedule_event actions name must exist and be the user's (`plan_invalid` otherwise).
 */
export function buildActions(tx: Tx, userId: string, inputs: readonly ActionInput[], planTaskId: string, now: Date): StoredAction[] {
  const problems: ErrorDetail[] = [];
  const actions = inputs.map((a, i): StoredAction => {
    const base = {
      action_id: newId('ac', now.getTime()),
      kind: a.kind,
      task_id: a.task_id ?? planTaskId,
      reasoning: a.reasoning ?? '',
      confidence: a.confidence ?? 1,
      status: 'proposed' as const,
      ...(a.tempo_tag !== undefined ? { tempo_tag: a.tempo_tag } : {}),
    };
    if (a.kind === 'reflect') {
      const duration = a.duration_minutes ?? 0;
      return {
        ...base,
        title: a.title ?? titleOf(a.content!),
        scheduled_for: new Date(a.scheduled_for ?? now).toISOString(),
        duration_minutes: duration,
        estimate_minutes: a.estimate_minutes ?? duration,
        content: a.content!,
      };
    }
    if (a.kind === 'reschedule_event') {
      const ev = eventReads(tx).get(a.event_uid!);
      if (!ev || ev.user_id !== userId) {
        problems.push({ path: `actions.${i}.event_uid`, message: `no event ${a.event_uid} to reschedule` });
        return {
          ...base,
          title: a.title ?? '',
          scheduled_for: new Date(a.scheduled_for!).toISOString(),
          duration_minutes: 0,
          estimate_minutes: 0,
          event_uid: a.event_uid!,
        };
      }
      const duration = a.duration_minutes ?? ev.duration_minutes;
      return {
        ...base,
        title: a.title ?? ev.title,
        scheduled_for: new Date(a.scheduled_for!).toISOString(),
        duration_minutes: duration,
        estimate_minutes: a.estimate_minutes ?? duration,
        event_uid: ev.uid,
        ...(a.content !== undefined ? { content: a.content } : {}),
      };
    }
    const duration = a.duration_minutes ?? tagMinutes(a.tempo_tag!)!;
    return {
      ...base,
      title: a.title!,
      scheduled_for: new Date(a.scheduled_for!).toISOString(),
      duration_minutes: duration,
      estimate_minutes: a.estimate_minutes ?? duration,
      ...(a.rrule !== undefined ? { rrule: canonicalRrule(a.rrule) } : {}),
      ...(a.content !== undefined ? { content: a.content } : {}),
    };
  });
  if (problems.length) throw planInvalid(problems);
  return actions.map(ordered);
}

/** Whether a read-only field sent with an edit says the same as the plan (absent, false and [] alike where the API leaves them out). */
function sameValue(field: (typeof ACTION_READ_ONLY)[number], sent: unknown, have: unknown): boolean {
  if (field === 'edited') return Boolean(sent) === Boolean(have);
  if (field === 'conflicts') return isDeepStrictEqual(sent ?? [], have ?? []);
  return isDeepStrictEqual(sent, have);
}

const shown = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

/**
 * Apply the person's edits at approval. Returns the new actions and the indexes of those whose
 * time or duration changed (to re-check against the constraints). An edited action keeps what was
 * proposed in `original`. An edit may be the whole action as the API returned it: read-only fields
 * equal to the plan's are ignored, a different one is refused naming the field.
 */
export function applyEdits(actions: readonly StoredAction[], edits: readonly ActionEdit[]): { actions: StoredAction[]; changed: number[] } {
  const problems: ErrorDetail[] = [];
  const byId = new Map(actions.map((a, i) => [a.action_id, i]));
  const next = actions.map((a) => ({ ...a }));
  const changed = new Set<number>();
  const seen = new Set<string>();
  edits.forEach((e, j) => {
    const i = byId.get(e.action_id);
    if (i === undefined) return problems.push({ path: `actions.${j}.action_id`, message: `no action ${e.action_id} in this plan` });
    if (seen.has(e.action_id)) return problems.push({ path: `actions.${j}.action_id`, message: `${e.action_id} is edited twice` });
    seen.add(e.action_id);
    const cur = next[i]!;
    for (const field of ACTION_READ_ONLY) {
      if (e[field] === undefined || sameValue(field, e[field], cur[field])) continue;
      problems.push({
        path: `actions.${j}.${field}`,
        message: `${field} is read-only: the plan has ${shown(cur[field])}, the edit sends ${shown(e[field])}`,
      });
    }
    if (e.content !== undefined && e.content !== cur.content && cur.kind !== 'reflect')
      problems.push({ path: `actions.${j}.content`, message: 'only a reflect action has content to edit' });
    if (e.duration_minutes === 0 && cur.kind !== 'reflect')
      problems.push({ path: `actions.${j}.duration_minutes`, message: 'an event lasts at least a minute' });
    if (e.rrule !== undefined && (e.rrule ?? undefined) !== cur.rrule && cur.kind !== 'add_event')
      problems.push({ path: `actions.${j}.rrule`, message: 'only an add_event action repeats' });
    if (e.status !== undefined && e.status !== cur.status && e.status !== 'rejected')
      problems.push({ path: `actions.${j}.status`, message: `status can only become "rejected" (leave the action out), not "${e.status}"` });
    const original = cur.original ?? {
      title: cur.title,
      scheduled_for: cur.scheduled_for,
      duration_minutes: cur.duration_minutes,
      task_id: cur.task_id,
      ...(cur.content !== undefined ? { content: cur.content } : {}),
      ...(cur.tempo_tag !== undefined ? { tempo_tag: cur.tempo_tag } : {}),
      ...(cur.rrule !== undefined ? { rrule: cur.rrule } : {}),
    };
    const upd: StoredAction = { ...cur };
    if (e.title !== undefined) upd.title = e.title;
    if (e.scheduled_for !== undefined) upd.scheduled_for = new Date(e.scheduled_for).toISOString();
    if (e.duration_minutes !== undefined) upd.duration_minutes = e.duration_minutes;
    if (e.task_id !== undefined) upd.task_id = e.task_id;
    if (e.content !== undefined) upd.content = e.content;
    if (e.tempo_tag === null) delete upd.tempo_tag;
    else if (e.tempo_tag !== undefined) upd.tempo_tag = e.tempo_tag;
    if (e.rrule === null) delete upd.rrule;
    else if (e.rrule !== undefined) upd.rrule = canonicalRrule(e.rrule);
    if (e.status === 'rejected') upd.status = 'rejected';
    const differs = (['title', 'scheduled_for', 'duration_minutes', 'task_id', 'content', 'tempo_tag', 'rrule', 'status'] as const).some(
      (k) => upd[k] !== cur[k],
    );
    if (!differs) return;
    if (upd.scheduled_for !== cur.scheduled_for || upd.duration_minutes !== cur.duration_minutes || upd.rrule !== cur.rrule) changed.add(i);
    next[i] = { ...upd, edited: true, original };
  });
  if (problems.length) throw validationFailed(`Cannot apply the edits: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}.`, problems);
  if (next.every((a) => a.status === 'rejected')) {
    throw validationFailed('Every action was left out: reject the plan instead.', [{ path: 'actions', message: 'at least one action must remain' }]);
  }
  return { actions: next, changed: [...changed].filter((i) => next[i]!.status !== 'rejected') };
}
