import type { DiffResult } from '../../contracts/export.js';
import { diff, type PatchOperation } from '../../contracts/patch.js';
import type { MemoryState, TraceState } from './history.js';
import { projectTrace } from './redact.js';

export type DiffEntry =
  | { kind: 'added'; uid: string; state: TraceState; value: Record<string, unknown> }
  | { kind: 'removed'; uid: string; state: TraceState; value: Record<string, unknown> }
  | { kind: 'changed'; uid: string; state: TraceState; value: { uid: string; from_version: number; to_version: number; patch: PatchOperation[] } };

/**
 * What changed from one state to the other, ordered by uid. Traces are compared as exported (see
 * projectTrace), so a change only to a hidden field is no change; a removed trace is shown as it
 * was at the earlier point. `state` is the side an entry is grouped by.
 */
export function diffStates(from: MemoryState, to: MemoryState, includeFeedback: boolean): DiffEntry[] {
  const out: DiffEntry[] = [];
  for (const [uid, b] of to) {
    const a = from.get(uid);
    if (!a) {
      out.push({ kind: 'added', uid, state: b, value: projectTrace(b.doc, includeFeedback) });
      continue;
    }
    if (a.version === b.version) continue;
    const patch = diff(projectTrace(a.doc, includeFeedback), projectTrace(b.doc, includeFeedback));
    if (patch.length) out.push({ kind: 'changed', uid, state: b, value: { uid, from_version: a.version, to_version: b.version, patch } });
  }
  for (const [uid, a] of from) if (!to.has(uid)) out.push({ kind: 'removed', uid, state: a, value: projectTrace(a.doc, includeFeedback) });
  return out.sort((x, y) => (x.uid < y.uid ? -1 : x.uid > y.uid ? 1 : 0));
}

/** Entries back into the response shape. */
export function diffResult(entries: readonly DiffEntry[]): DiffResult {
  const r = { added: [] as unknown[], removed: [] as unknown[], changed: [] as unknown[] };
  for (const e of entries) r[e.kind].push(e.value);
  return r as DiffResult;
}
