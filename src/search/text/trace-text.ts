import type { StoredTrace } from '../../contracts/memory.js';

/**
 * What a trace means, as text for an embedder: its task (a user's own topic label, often the
 * most telling word: "wedding", "migration"), its content and its notes.
 */
export function traceText(t: Pick<StoredTrace, 'task_id' | 'content' | 'notes'>): string {
  const task = t.task_id.replace(/[-_.:/]+/g, ' ').trim();
  return [task && `${task}:`, t.content, t.notes].filter(Boolean).join(' ');
}
