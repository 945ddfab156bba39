import { EDITABLE_FIELDS, type StoredTrace, type TraceUpdates } from '../../contracts/memory.js';
import { type PatchOperation, replay } from '../../contracts/patch.js';
import type { Store } from '../../store/store.js';
import type { MemoryService } from '../memory/memory-service.js';
import { traceReads } from '../memory/traces.js';
import type { Principal } from '../principal.js';
import type { Undoable } from './undoable.js';

/** Traces the server keeps up to date itself (a plan's, an event's, a transition): their edits are not the person's. */
const SERVER_KEPT = new Set(['agent_plan', 'calendar_event', 'transition']);

const editable = (t: Record<string, unknown>) => JSON.stringify(EDITABLE_FIELDS.map((k) => t[k] ?? null));

/**
 * The person's trace edits that can be taken back, one per trace: the newest edit still standing.
 * A trace's versions are read as a stack: a version equal to the one two below it is the undo of
 * the version between (or a hand edit back), so both drop out and the edit before is offered next.
 */
export function traceEditChanges(store: Store, memory: MemoryService, traces: readonly StoredTrace[], mine: string): Undoable[] {
  const out: Undoable[] = [];
  for (const t of traces) {
    if (t.version < 2 || SERVER_KEPT.has(t.type)) continue;
    const rows = traceReads(store)
      .versionsOf(t.uid)
      .slice()
      .sort((a, b) => a.version - b.version);
    const patches: PatchOperation[][] = [];
    const stack: { doc: Record<string, unknown>; row: (typeof rows)[number] }[] = [];
    for (const row of rows) {
      patches.push(row.patch);
      const doc = replay(patches);
      const below = stack[stack.length - 2];
      if (below && editable(below.doc) === editable(doc)) stack.pop();
      else stack.push({ doc, row });
    }
    const top = stack[stack.length - 1];
    const prev = stack[stack.length - 2];
    if (!top || !prev || top.row.actor !== mine || top.row.version !== t.version) continue;
    const updates: Record<string, unknown> = {};
    for (const k of EDITABLE_FIELDS) {
      const was = prev.doc[k];
      if (JSON.stringify(was ?? null) !== JSON.stringify((t as Record<string, unknown>)[k] ?? null)) updates[k] = was ?? null;
    }
    const fields = Object.keys(updates);
    if (!fields.length) continue;
    const label = `trace ${t.uid} (“${t.content.length > 40 ? `${t.content.slice(0, 39)}…` : t.content}”)`;
    out.push({
      id: top.row.id,
      kind: 'trace_edit',
      at: top.row.timestamp,
      summary: `edited ${label}: ${fields.join(', ')}`,
      undo: `restore ${fields.join(', ')} of ${label} as they were in version ${prev.row.version}`,
      events: 0,
      run: async (who: Principal) => {
        await memory.edit(who, { uid: t.uid, updates: updates as TraceUpdates, expected_version: t.version });
      },
    });
  }
  return out;
}
