import type { PatchOperation } from '../../contracts/stored.js';
import jsonpatch from 'fast-json-patch';

/** An RFC 6902 operation as stored in `trace_versions.patch`. */
export type { PatchOperation };

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
