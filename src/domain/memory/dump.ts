import type { StoredTrace } from '../../contracts/memory.js';
import { AppError, notFound } from '../../errors.js';

export interface DumpSelector {
  trace_uid?: string;
  task_id?: string;
  linked_event_uid?: string;
}

export interface TraceLink {
  from: string;
  to: string;
  kind: 'linked_trace' | 'child_trace' | 'linked_event';
}

export interface TraceDump {
  traces: StoredTrace[];
  links: TraceLink[];
  profile: Record<string, unknown>;
}

/** A dump follows causal links this far at most, so a densely linked memory cannot blow it up. */
const MAX_DUMP = 2000;
/**
 * The text a dump may hold (contents, in characters). The answer is one JSON string: 2,000 traces
 * of 100,000 characters would be hundreds of MB in the daemon's memory at once, and past V8's
 * string limit it could not be made at all. A larger dump is refused and says how to read it.
 */
export const MAX_DUMP_CHARS = 32 * 2 ** 20;

const edgesOf = (t: StoredTrace): TraceLink[] => [
  ...t.linked_trace_ids.map((to) => ({ from: t.uid, to, kind: 'linked_trace' as const })),
  ...t.child_trace_ids.map((to) => ({ from: t.uid, to, kind: 'child_trace' as const })),
  ...(t.linked_event_uid !== undefined ? [{ from: t.uid, to: t.linked_event_uid, kind: 'linked_event' as const }] : []),
];

/**
 * The selected traces plus everything causally connected to them in either direction (links they
 * make and links made to them), with every edge touching a dumped trace. `userTraces` is all of
 * one user's traces: links never cross users.
 */
export function dumpTraces(userTraces: StoredTrace[], sel: DumpSelector): Omit<TraceDump, 'profile'> {
  const byUid = new Map(userTraces.map((t) => [t.uid, t]));
  const incoming = new Map<string, string[]>();
  for (const t of userTraces) {
    for (const e of edgesOf(t)) if (e.kind !== 'linked_event') (incoming.get(e.to) ?? incoming.set(e.to, []).get(e.to)!).push(t.uid);
  }
  let seeds: StoredTrace[];
  if (sel.trace_uid !== undefined) seeds = [byUid.get(sel.trace_uid)].filter((t): t is StoredTrace => !!t);
  else if (sel.task_id !== undefined) seeds = userTraces.filter((t) => t.task_id === sel.task_id);
  else seeds = userTraces.filter((t) => t.linked_event_uid === sel.linked_event_uid);
  if (!seeds.length) {
    const what = sel.trace_uid ?? (sel.task_id !== undefined ? `task ${sel.task_id}` : `event ${sel.linked_event_uid}`);
    throw notFound(`No traces for ${what}.`);
  }

  const seen = new Set<string>();
  const queue = seeds.map((t) => t.uid);
  while (queue.length && seen.size < MAX_DUMP) {
    const uid = queue.shift()!;
    if (seen.has(uid)) continue;
    const t = byUid.get(uid);
    if (!t) continue;
    seen.add(uid);
    for (const e of edgesOf(t)) if (e.kind !== 'linked_event' && !seen.has(e.to)) queue.push(e.to);
    for (const from of incoming.get(uid) ?? []) if (!seen.has(from)) queue.push(from);
  }
  let chars = 0;
  for (const uid of seen) chars += byUid.get(uid)!.content.length;
  if (chars > MAX_DUMP_CHARS) {
    const what = sel.trace_uid ?? (sel.task_id !== undefined ? `task ${sel.task_id}` : `event ${sel.linked_event_uid}`);
    throw new AppError(
      413,
      'dump_too_large',
      `The dump of ${what} holds ${seen.size} traces and ${chars} characters of text, more than the ${MAX_DUMP_CHARS} a dump answers at once. Dump one trace at a time (trace_uid), or read the task a page at a time with export (limit and cursor).`,
    );
  }
  const traces = [...seen].map((u) => byUid.get(u)!).sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.uid < b.uid ? -1 : 1));
  const links = traces.flatMap(edgesOf);
  // Edges into the dump from traces outside it (only when MAX_DUMP cut the walk short).
  for (const t of traces)
    for (const from of incoming.get(t.uid) ?? []) if (!seen.has(from)) links.push(...edgesOf(byUid.get(from)!).filter((e) => e.to === t.uid));
  return { traces, links };
}
