import { usage } from '../../command-runtime.js';

const NUMBERS = new Set(['importance', 'feedback_rating']);
const LISTS = new Set(['linked_trace_ids', 'child_trace_ids']);
const OBJECTS = new Set(['fields']);
const STRINGS = new Set(['type', 'task_id', 'timestamp', 'content', 'tempo_tag', 'linked_event_uid', 'notes', 'chat_url', 'valid_until']);

function json(key: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw usage(`--set ${key}= wants JSON here (${(e as Error).message}).`);
  }
}

/**
 * `--set key=value` pairs into trace updates, typed by field so `task_id=2031` stays a string and
 * `importance=5` becomes a number. `null` clears an optional field; lists take JSON or a,b,c.
 * Anything else is sent as given and the server says what is wrong with it.
 */
export function parseTraceSets(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw usage(`--set wants key=value, not "${p}".`);
    const key = p.slice(0, i).trim();
    const raw = p.slice(i + 1);
    if (raw === 'null') out[key] = null;
    else if (STRINGS.has(key)) out[key] = raw;
    else if (NUMBERS.has(key)) out[key] = raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else if (LISTS.has(key))
      out[key] = raw.trim().startsWith('[')
        ? json(key, raw)
        : raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    else if (OBJECTS.has(key)) out[key] = json(key, raw);
    else {
      try {
        out[key] = JSON.parse(raw);
      } catch {
        out[key] = raw;
      }
    }
  }
  return out;
}

/** The fields that differ between the trace as fetched and as edited; a removed field becomes null. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[k]) === JSON.stringify(after[k])) continue;
    out[k] = k in after ? after[k] : null;
  }
  return out;
}
