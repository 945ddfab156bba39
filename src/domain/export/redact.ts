/** Fields that never leave the daemon in an export (seed §4.8): who wrote a trace and the chat it came from. */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set(['authored_by', 'chat_url']);
/** Feedback on a trace, exported only with include_feedback=true. */
export const FEEDBACK_FIELDS: ReadonlySet<string> = new Set(['feedback_rating', 'notes']);

/**
 * The view of a trace an export shows: without the sensitive fields and, unless asked for, the
 * feedback. Diffs compare these views, so a change to a hidden field is not a change at all.
 */
export function projectTrace(t: Readonly<Record<string, unknown>>, includeFeedback: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(t)) {
    if (SENSITIVE_FIELDS.has(k) || (!includeFeedback && FEEDBACK_FIELDS.has(k))) continue;
    out[k] = t[k];
  }
  return out;
}

const isPatchOp = (v: unknown): v is { op: string; path: string; from?: string } =>
  typeof v === 'object' && v !== null && typeof (v as { op?: unknown }).op === 'string' && typeof (v as { path?: unknown }).path === 'string';

/** Whether an RFC 6901 pointer names a sensitive field at any level. */
function pointsAtSensitive(pointer: string | undefined): boolean {
  if (!pointer) return false;
  return pointer.split('/').some((seg) => SENSITIVE_FIELDS.has(seg.replace(/~1/g, '/').replace(/~0/g, '~')));
}

/**
 * The last step of every export, whatever its mode: a copy of the response without any key named
 * authored_by or chat_url at any depth (groups, diffs, `fields` included), and without patch
 * operations that point at one. Nothing is built after it, so nothing can bring them back.
 */
export function stripSensitive<T>(value: T): T {
  return strip(value) as T;
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      if (isPatchOp(x) && (pointsAtSensitive(x.path) || pointsAtSensitive(x.from))) continue;
      out.push(strip(x));
    }
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!SENSITIVE_FIELDS.has(k)) out[k] = strip(x);
    return out;
  }
  return v;
}
