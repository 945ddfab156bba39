import { firstVersionOf, versionId } from '../../contracts/first-version.js';
import type { StoredTrace, TraceType, TraceUpdates } from '../../contracts/memory.js';
import { diff } from '../../contracts/patch.js';
import type { TraceVersion } from '../../contracts/stored.js';
import { AppError, conflict, type ErrorDetail, notFound, validationFailed } from '../../errors.js';
import type { Tx } from '../../store/store.js';
import { isTempoTag, normalizeTag } from '../../time/tags.js';
import { newId } from '../ids.js';

/** One row of `trace_versions`: every version of every trace, with the patch from the previous one. */
export type { TraceVersion };

/** What another area gives to record a server-made trace. */
export interface StageTraceInput {
  user_id: string;
  type: TraceType;
  task_id: string;
  content: string;
  actor: string;
  timestamp?: string;
  importance?: number;
  tempo_tag?: string;
  linked_trace_ids?: string[];
  linked_event_uid?: string;
  child_trace_ids?: string[];
  fields?: Record<string, unknown>;
  valid_until?: string;
}

/** A new trace before it is staged: everything but the server-kept fields. */
export interface NewTrace extends Omit<StageTraceInput, 'actor'> {
  uid?: string;
  feedback_rating?: number;
  notes?: string;
  chat_url?: string;
  space?: string;
  authored_by: string;
}

const utc = (iso: string, path: string): string => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw validationFailed(`${path} is not a valid date-time.`, [{ path, message: 'not a valid ISO 8601 date-time' }]);
  return d.toISOString();
};

/**
 * Links must name existing traces of the same user (staged ones included, so a batch may link
 * within itself), and never the trace itself. Problems are collected, paths prefixed by `where`.
 */
function linkProblems(tx: Tx, userId: string, selfUid: string, ids: readonly string[] | undefined, field: string, where: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  (ids ?? []).forEach((id, i) => {
    const path = `${where}${field}.${i}`;
    if (id === selfUid) out.push({ path, message: 'a trace cannot link to itself' });
    else if (tx.get('traces', id)?.user_id !== userId) out.push({ path, message: `no trace ${id}` });
  });
  return out;
}

/**
 * Stage a new trace in the caller's transaction (its version-1 history row is derived from it
 * until its first edit: contracts/first-version.ts). Used by push (with `where` naming the batch
 * index in error paths) and, through stageTrace, by the other areas.
 */
export function stageNewTrace(tx: Tx, input: NewTrace, now: Date, where = ''): StoredTrace {
  const nowIso = now.toISOString();
  const uid = input.uid ?? newId('tr', now.getTime());
  if (tx.get('traces', uid)) throw conflict(`A trace with uid ${uid} exists already.`, 'conflict', [{ path: `${where}uid`, message: 'exists already' }]);
  if (input.tempo_tag !== undefined && !isTempoTag(input.tempo_tag)) {
    throw new AppError(422, 'invalid_tempo_tag', `Not a tempo tag: ${input.tempo_tag}`, {
      details: [{ path: `${where}tempo_tag`, message: 'not a tempo tag' }],
    });
  }
  const problems = [
    ...linkProblems(tx, input.user_id, uid, input.linked_trace_ids, 'linked_trace_ids', where),
    ...linkProblems(tx, input.user_id, uid, input.child_trace_ids, 'child_trace_ids', where),
  ];
  if (problems.length) throw validationFailed(`Linked traces must exist and belong to the same user: ${problems.map((p) => p.path).join(', ')}.`, problems);

  const trace: StoredTrace = {
    uid,
    user_id: input.user_id,
    type: input.type,
    task_id: input.task_id,
    timestamp: input.timestamp ? utc(input.timestamp, `${where}timestamp`) : nowIso,
    content: input.content,
    importance: input.importance ?? 3,
    ...(input.tempo_tag !== undefined ? { tempo_tag: normalizeTag(input.tempo_tag) } : {}),
    version: 1,
    linked_trace_ids: [...(input.linked_trace_ids ?? [])],
    ...(input.linked_event_uid !== undefined ? { linked_event_uid: input.linked_event_uid } : {}),
    child_trace_ids: [...(input.child_trace_ids ?? [])],
    ...(input.feedback_rating !== undefined ? { feedback_rating: input.feedback_rating } : {}),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
    authored_by: input.authored_by,
    ...(input.chat_url !== undefined ? { chat_url: input.chat_url } : {}),
    ...(input.valid_until !== undefined ? { valid_until: utc(input.valid_until, `${where}valid_until`) } : {}),
    ...(input.fields !== undefined ? { fields: structuredClone(input.fields) } : {}),
    ...(input.space !== undefined ? { space: input.space } : {}),
    created_at: nowIso,
    updated_at: nowIso,
  };
  tx.put('traces', trace);
  return trace;
}

/**
 * Stage a new server-made trace (`tr_` uid) inside the caller's transaction, so it commits
 * atomically with the caller's own writes. `authored_by` is the actor. Publish it after the
 * transaction resolved with `memory.announce(trace, 'created')`.
 */
export function stageTrace(tx: Tx, input: StageTraceInput, now: Date): StoredTrace {
  const { actor, ...rest } = input;
  return stageNewTrace(tx, { ...rest, authored_by: actor }, now);
}

export interface EditOptions {
  /** Refuse with 409 version_conflict unless the trace is at this version. */
  expectedVersion?: number;
  /** Called with the trace's owner before anything changes (throws 403 for another user's trace). */
  authorize?: (ownerId: string) => void;
}

/**
 * Apply an edit exactly as PATCH /memory/edit does: version + 1, updated_at, a history row with
 * the RFC 6902 patch from the previous version. A null value clears an optional field.
 * Transition traces are immutable (409 immutable_trace). Returns the new trace.
 */
export function stageTraceEdit(tx: Tx, uid: string, updates: TraceUpdates, actor: string, now: Date, opts: EditOptions = {}): StoredTrace {
  const cur = tx.get('traces', uid);
  if (!cur) throw notFound(`No trace ${uid}.`);
  opts.authorize?.(cur.user_id);
  if (cur.type === 'transition') throw conflict(`Trace ${uid} records a plan transition and cannot be edited.`, 'immutable_trace');
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== cur.version) {
    throw conflict(
      `Trace ${uid} is at version ${cur.version}, not ${opts.expectedVersion}: it was changed meanwhile. Reload it and edit again.`,
      'version_conflict',
      [{ path: 'expected_version', message: `current version is ${cur.version}`, current_version: cur.version }],
    );
  }
  if ((updates.type as string | undefined) === 'transition')
    throw validationFailed('A trace cannot become a transition trace.', [{ path: 'updates.type', message: 'transition traces are recorded by the server' }]);

  // Editable fields are the trace's own (the schema of `updates` is a subset of the trace's).
  const next: StoredTrace = { ...cur };
  const fields = next as Record<string, unknown>;
  for (const [k, v] of Object.entries(updates)) {
    if (v === undefined) continue;
    if (v === null) delete fields[k];
    else if (k === 'timestamp' || k === 'valid_until') fields[k] = utc(v as string, `updates.${k}`);
    else if (k === 'tempo_tag') {
      if (!isTempoTag(v as string))
        throw new AppError(422, 'invalid_tempo_tag', `Not a tempo tag: ${String(v)}`, { details: [{ path: 'updates.tempo_tag', message: 'not a tempo tag' }] });
      next.tempo_tag = normalizeTag(v as string);
    } else fields[k] = structuredClone(v);
  }
  const problems = [
    ...(updates.linked_trace_ids ? linkProblems(tx, cur.user_id, uid, updates.linked_trace_ids, 'linked_trace_ids', 'updates.') : []),
    ...(updates.child_trace_ids ? linkProblems(tx, cur.user_id, uid, updates.child_trace_ids, 'child_trace_ids', 'updates.') : []),
  ];
  if (problems.length) throw validationFailed(`Linked traces must exist and belong to the same user: ${problems.map((p) => p.path).join(', ')}.`, problems);

  next.version = cur.version + 1;
  next.updated_at = now.toISOString();
  keepFirstVersion(tx, cur);
  tx.put('traces', next);
  const row: TraceVersion = {
    id: versionId(uid, next.version),
    uid,
    user_id: cur.user_id,
    version: next.version,
    timestamp: next.updated_at,
    actor,
    patch: diff(cur, next),
  };
  tx.put('trace_versions', row);
  return next;
}

/**
 * Remove a trace, keeping its history: an export as of an earlier instant rebuilds it from its
 * rows, so an unedited trace's first row (derived from the trace until now) is stored first.
 * Whatever removes traces goes through here.
 */
export function stageTraceRemoval(tx: Tx, uid: string): void {
  const cur = tx.get('traces', uid);
  if (!cur) return;
  keepFirstVersion(tx, cur);
  tx.delete('traces', uid);
}

/** An unedited trace's first row is derived from it until it changes or goes: stored just before. */
function keepFirstVersion(tx: Tx, cur: StoredTrace): void {
  if (cur.version === 1 && !tx.get('trace_versions', versionId(cur.uid, 1))) tx.put('trace_versions', firstVersionOf(cur));
}
