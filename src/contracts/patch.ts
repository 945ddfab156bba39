import jsonpatch from 'fast-json-patch';
import type { z } from 'zod';
import type { PatchOp } from './memory.js';

/**
 * The RFC 6902 patches of a trace's history (`GET /memory/history`, `trace_versions.patch`), and
 * how to read them: the daemon makes and replays them, the CLI replays them to show a trace.
 */

/** An RFC 6902 operation as stored in `trace_versions.patch`. */
export type PatchOperation = z.output<typeof PatchOp>;

/** The patch from one stored version to the next (fast-json-patch `compare`). */
export function diff(from: object, to: object): PatchOperation[] {
  return jsonpatch.compare(from, to) as PatchOperation[];
}

/** Replay patches in order from `{}`: version 1's patch adds the whole trace at "". */
export function replay(patches: PatchOperation[][]): Record<string, unknown> {
  let doc: Record<string, unknown> = {};
  for (const p of patches) {
    doc = jsonpatch.applyPatch(doc, structuredClone(p) as never, true, false).newDocument as Record<string, unknown>;
  }
  return doc;
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function valueAt(doc: object, pointer: string): unknown {
  try {
    return jsonpatch.getValueByPointer(doc, pointer);
  } catch {
    return undefined;
  }
}
