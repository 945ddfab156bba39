import { applyPatch, deepClone, getValueByPointer, type Operation } from 'fast-json-patch';
import type { EndpointResponse } from '../../src/contracts/endpoints.js';

type Version = EndpointResponse<'GET /memory/history'>['versions'][number];

/** Fields every edit changes: the history shows what the person or agent changed, not these. */
const BOOKKEEPING = new Set(['/version', '/updated_at']);

/** One field's change in a version: the value before and after, undefined where absent. */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface VersionRow {
  version: number;
  timestamp: string;
  actor: string;
  changes: FieldChange[];
}

function valueAt(doc: unknown, path: string): unknown {
  try {
    return path === '' ? doc : getValueByPointer(doc, path);
  } catch {
    return undefined;
  }
}

/**
 * The trace as it is now and each version's changes, replayed from its history (version 1 adds
 * the whole trace at ""): GET /memory/history is the one call the trace view needs.
 */
export function replay(versions: Version[]): { current: Record<string, unknown>; rows: VersionRow[] } {
  let doc: any = {};
  const rows: VersionRow[] = [];
  for (const v of [...versions].sort((a, b) => a.version - b.version)) {
    const ops = v.patch as Operation[];
    const before = deepClone(doc);
    doc = applyPatch(doc, deepClone(ops), false, false).newDocument;
    const paths = v.version === 1 ? [] : [...new Set(ops.map((o) => o.path))].filter((p) => !BOOKKEEPING.has(p));
    rows.push({
      version: v.version,
      timestamp: v.timestamp,
      actor: v.actor,
      changes: paths.map((path) => ({ path, before: valueAt(before, path), after: valueAt(doc, path) })),
    });
  }
  return { current: doc, rows: rows.reverse() };
}

/** A value as a person reads it in a diff. */
export function shown(v: unknown): string {
  if (v === undefined) return '(none)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
