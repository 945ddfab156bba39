import type { Doc } from './schema.js';

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
export function shareFirstVersion(row: Doc, trace: Doc | undefined): Doc | undefined {
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
