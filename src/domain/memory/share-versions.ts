import { TurnSlice } from '../../platform/turn-slice.js';
import type { Doc } from '../../store/schema.js';
import type { Store } from '../../store/store.js';

/** Two plain JSON values are equal (documents are plain JSON: no dates, maps or cycles). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

interface AddOp {
  op: string;
  path: string;
  value?: unknown;
}

/**
 * A trace's first history row (`trace_versions`, version 1) holds the whole trace as written, as
 * one patch `{op: 'add', path: '', value}`. While the trace is unedited that value equals the
 * trace itself, yet each write and each read of db.json makes it a copy of its own: at 100,000
 * traces, a hundred MB of the daemon's memory held twice. This returns the row with the stored
 * trace in place of its equal copy (frozen, like every stored document), or undefined when there
 * is nothing to share. Equal values, so no reader can tell.
 */
function shareFirstVersion(row: Doc, trace: Doc | undefined): Doc | undefined {
  if (!trace || row.version !== 1 || trace.version !== 1) return undefined;
  const patch = row.patch as AddOp[] | undefined;
  if (!Array.isArray(patch) || patch.length !== 1) return undefined;
  const [op] = patch as [AddOp];
  if (op.op !== 'add' || op.path !== '' || op.value === trace || !sameJson(op.value, trace)) return undefined;
  return Object.freeze(copyWith(row, 'patch', Object.freeze([Object.freeze(copyWith(op, 'value', trace))])));
}

/**
 * A copy of `o` with `key` set to `value`, keys in the same order, built one property at a time:
 * such copies share one hidden class. Spreading a frozen document (`{...row}`) gave, once V8
 * had optimised the loop, every copy a hidden class of its own: at 100,000 history rows, 200,000
 * maps and descriptor arrays, ~40 MB of heap.
 */
function copyWith<T extends object>(o: T, key: string, value: unknown): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = k === key ? value : (o as Record<string, unknown>)[k];
  return out as T;
}

/**
 * History rows take their memory from their trace: a first row (version 1) holds the stored trace
 * itself in place of its equal copy (shareFirstVersion), and every row the trace's own uid and
 * timestamp strings. Each new first row is shared as it commits; what db.json and the journal
 * held is shared after a start, a slice per turn of the event loop (memory, not correctness, so
 * the daemon answers first). The turns are ref'd immediates: Node runs unref'd ones only when
 * something else wakes the loop (a request), so the work would wait for traffic and then tax
 * every request. It ends by itself, or when the store closes. Returns the unsubscribe function.
 */
export function shareTraceVersions(store: Store): () => void {
  const share = (row: Doc) => {
    const shared = shareFirstVersion(row, store.get('traces', row.uid as string) as Doc | undefined);
    if (shared) store.replaceEqual('trace_versions', row as never, shared as never);
  };
  const unsubscribe = store.changes('trace_versions', (changes) => {
    for (const c of changes) if (c.op === 'put') share(c.doc as unknown as Doc);
  });
  void (async () => {
    const rows = store.all('trace_versions') as unknown as Doc[];
    const slice = new TurnSlice(5);
    await slice.yield();
    for (const row of rows) {
      if (store.isClosed) return;
      if (store.get('trace_versions', row.id as string) === (row as never)) {
        borrowTraceStrings(row, store.get('traces', row.uid as string) as Doc | undefined);
        share(row);
      }
      await slice.maybeYield();
    }
  })();
  return unsubscribe;
}

/**
 * A history row repeats its trace's uid, and often its timestamps: the store's interner has long
 * moved on by the time the rows are read (they follow all the traces in db.json), so a row just
 * parsed (not frozen, held by nobody else) takes the trace's own strings. Equal strings, so no
 * reader can tell.
 */
function borrowTraceStrings(row: Doc, trace: Doc | undefined): void {
  if (!trace || Object.isFrozen(row)) return;
  row.uid = trace.uid;
  if (row.timestamp === trace.updated_at) row.timestamp = trace.updated_at;
  else if (row.timestamp === trace.created_at) row.timestamp = trace.created_at;
}
