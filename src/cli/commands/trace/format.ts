import type { ChalkInstance } from 'chalk';
import type { z } from 'zod';
import type { MemoryTrace } from '../../../contracts/memory.js';

/** A trace as the API returns it. */
export type Trace = z.output<typeof MemoryTrace>;

/** A trace as labelled lines, for `show` and after an edit. */
export function describeTrace(t: Trace, c: ChalkInstance): string {
  const rows: [string, unknown][] = [
    ['uid', t.uid],
    ['type', t.type],
    ['task', t.task_id],
    ['time', t.timestamp],
    ['importance', t.importance],
    ['tempo tag', t.tempo_tag],
    ['version', t.version],
    ['authored by', t.authored_by],
    ['links', t.linked_trace_ids.length ? t.linked_trace_ids.join(', ') : undefined],
    ['children', t.child_trace_ids.length ? t.child_trace_ids.join(', ') : undefined],
    ['event', t.linked_event_uid],
    ['rating', t.feedback_rating],
    ['notes', t.notes],
    ['chat', t.chat_url],
    ['valid until', t.valid_until],
    ['fields', t.fields ? JSON.stringify(t.fields) : undefined],
    ['updated', t.updated_at],
  ];
  const head = rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${c.dim(k.padEnd(12))}${String(v)}`)
    .join('\n');
  return `${head}\n\n${t.content}`;
}
