import type { StoredEvent } from '../../contracts/stored.js';
import type { Commit } from '../../store/commit.js';
import type { Reads } from '../../store/store.js';

/**
 * The calendar area's reads of `events` for the areas that look at the calendar without owning it
 * (plans, planner, export, tempo). Pass the store for the durable state or a transaction for its
 * staged view.
 */
export function eventReads(r: Reads) {
  return {
    get: (uid: string): StoredEvent | undefined => r.get('events', uid),
    ofUser: (userId: string): StoredEvent[] => r.byIndex('events', 'user_id', userId),
  };
}

/** The events a committed transaction wrote. */
export const eventsWritten = (commit: Commit): StoredEvent[] => commit.puts('events');
