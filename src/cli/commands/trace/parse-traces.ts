import { usage } from '../../command-runtime.js';

/**
 * Traces from text: a JSON array, a `{traces: [...]}` body, a single object, or NDJSON (one
 * object per line; blank lines skipped). Parse errors name the line.
 */
export function parseTraces(text: string, name: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed) throw usage(`${name} is empty: expected a JSON array or NDJSON traces.`);
  try {
    const v: unknown = JSON.parse(trimmed);
    if (Array.isArray(v)) return v;
    if (v && typeof v === 'object' && Array.isArray((v as { traces?: unknown }).traces)) return (v as { traces: unknown[] }).traces;
    return [v];
  } catch {
    // not one JSON document: try NDJSON
  }
  const out: unknown[] = [];
  const lines = trimmed.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line));
    } catch (e) {
      throw usage(`${name} line ${i + 1} is not JSON (${(e as Error).message}); expected a JSON array or one JSON object per line.`);
    }
  });
  return out;
}
