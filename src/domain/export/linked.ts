import type { StoredTrace } from '../../contracts/memory.js';
import type { Store } from '../../store/store.js';
import { traceReads } from '../memory/traces.js';

export interface Reached {
  trace: StoredTrace;
  /** Link hops from a trace that matched the filters (0 = it matched). */
  depth: number;
}

/**
 * Breadth-first walk from the seeds along linked_trace_ids, child_trace_ids and shared
 * linked_event_uid (traces tied to the same calendar event), within one user's memory. Each trace
 * is reached once, at its smallest depth; cycles end because a visited trace is never queued again.
 */
export function walkLinks(store: Store, userId: string, seeds: readonly StoredTrace[]): Reached[] {
  const seen = new Map<string, Reached>();
  let byEvent: Map<string, StoredTrace[]> | undefined;
  const sameEvent = (eventUid: string) => {
    if (!byEvent) {
      byEvent = new Map();
      for (const t of traceReads(store).ofUser(userId)) {
        if (t.linked_event_uid === undefined) continue;
        let list = byEvent.get(t.linked_event_uid);
        if (!list) byEvent.set(t.linked_event_uid, (list = []));
        list.push(t);
      }
    }
    return byEvent.get(eventUid) ?? [];
  };
  let frontier: Reached[] = [];
  for (const t of seeds) {
    if (seen.has(t.uid)) continue;
    const r = { trace: t, depth: 0 };
    seen.set(t.uid, r);
    frontier.push(r);
  }
  while (frontier.length) {
    const next: Reached[] = [];
    for (const { trace, depth } of frontier) {
      const neighbours: StoredTrace[] = [];
      for (const uid of [...(trace.linked_trace_ids ?? []), ...(trace.child_trace_ids ?? [])]) {
        const t = traceReads(store).get(uid);
        if (t) neighbours.push(t);
      }
      if (trace.linked_event_uid !== undefined) neighbours.push(...sameEvent(trace.linked_event_uid));
      for (const t of neighbours) {
        if (t.user_id !== userId || seen.has(t.uid)) continue;
        const r = { trace: t, depth: depth + 1 };
        seen.set(t.uid, r);
        next.push(r);
      }
    }
    frontier = next;
  }
  return [...seen.values()];
}

/** Linked order: depth, then timestamp, then uid. */
export function compareReached(a: Reached, b: Reached): number {
  if (a.depth !== b.depth) return a.depth - b.depth;
  if (a.trace.timestamp !== b.trace.timestamp) return a.trace.timestamp < b.trace.timestamp ? -1 : 1;
  return a.trace.uid < b.trace.uid ? -1 : a.trace.uid > b.trace.uid ? 1 : 0;
}
