import type { StoredTrace } from '../../src/contracts/memory.js';

const AT = '2026-11-22T08:00:00.000Z';

/**
 * An observation as the store holds it, written by its own user at one instant; tests override
 * what they exercise. `authored_by` follows an overridden `user_id` unless it is given too.
 */
export function storedTrace(over: Partial<StoredTrace> = {}): StoredTrace {
  const user = over.user_id ?? 'u';
  return {
    uid: 't1',
    user_id: user,
    type: 'observation',
    task_id: 'task',
    timestamp: AT,
    content: 'note',
    importance: 3,
    version: 1,
    linked_trace_ids: [],
    child_trace_ids: [],
    authored_by: user,
    created_at: AT,
    updated_at: AT,
    ...over,
  };
}
