import { replay } from '../../contracts/patch.js';
import type { Store } from '../../store/store.js';
import type { TraceVersion } from '../memory/stage-trace.js';
import { traceReads } from '../memory/traces.js';

/** One trace at one version: its document as it was then. */
export interface TraceState {
  uid: string;
  version: number;
  doc: Readonly<Record<string, unknown>>;
}

/** A user's memory at one point (an instant or a checkpoint), by uid. */
export type MemoryState = Map<string, TraceState>;

function rowsOf(store: Store, uid: string): TraceVersion[] {
  return traceReads(store)
    .versionsOf(uid)
    .slice()
    .sort((a, b) => a.version - b.version);
}

/** Replay rows 1..n; undefined when the history has a hole (it cannot be rebuilt honestly). */
function rebuild(rows: TraceVersion[]): Record<string, unknown> | undefined {
  if (!rows.length || rows.some((r, i) => r.version !== i + 1)) return undefined;
  return replay(rows.map((r) => r.patch));
}

/** The trace as it was at `version`: the stored document when it is still at it, else replayed. */
export function traceAtVersion(store: Store, uid: string, version: number): Readonly<Record<string, unknown>> | undefined {
  const cur = traceReads(store).get(uid);
  if (cur && cur.version === version) return cur;
  return rebuild(rowsOf(store, uid).filter((r) => r.version <= version));
}

/** Every current trace of the user. */
export function currentState(store: Store, userId: string): MemoryState {
  const state: MemoryState = new Map();
  for (const t of traceReads(store).ofUser(userId)) state.set(t.uid, { uid: t.uid, version: t.version, doc: t });
  return state;
}

/**
 * Every trace of the user as it was at `instant` (UTC ISO): its last version made at or before
 * it. Traces deleted since are found through their history rows.
 */
export function stateAt(store: Store, userId: string, instant: string): MemoryState {
  const state: MemoryState = new Map();
  const live = new Set<string>();
  for (const t of traceReads(store).ofUser(userId)) {
    live.add(t.uid);
    // Version rows are stamped with updated_at: a trace not touched since the instant is as it is now.
    if (t.updated_at <= instant) state.set(t.uid, { uid: t.uid, version: t.version, doc: t });
    else if (t.created_at <= instant) addFromRows(state, rowsOf(store, t.uid), instant);
  }
  const gone = new Map<string, TraceVersion[]>();
  for (const r of traceReads(store).versionsOfUser(userId)) {
    if (live.has(r.uid) || r.timestamp > instant) continue;
    let rows = gone.get(r.uid);
    if (!rows) gone.set(r.uid, (rows = []));
    rows.push(r);
  }
  for (const rows of gone.values())
    addFromRows(
      state,
      rows.sort((a, b) => a.version - b.version),
      instant,
    );
  return state;
}

function addFromRows(state: MemoryState, rows: TraceVersion[], instant: string): void {
  const upTo = rows.filter((r) => r.timestamp <= instant);
  const doc = rebuild(upTo);
  if (doc) state.set(upTo[0]!.uid, { uid: upTo[0]!.uid, version: upTo.at(-1)!.version, doc });
}

/** The traces a checkpoint recorded, each at its recorded version. */
export function checkpointState(store: Store, traces: Readonly<Record<string, number>>): MemoryState {
  const state: MemoryState = new Map();
  for (const [uid, version] of Object.entries(traces)) {
    // With its history gone, a trace is still known to have been there, at that version.
    const doc = traceAtVersion(store, uid, version) ?? { uid, version };
    state.set(uid, { uid, version, doc });
  }
  return state;
}
