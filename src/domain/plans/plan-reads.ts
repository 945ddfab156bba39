import type { StoredPlan } from '../../contracts/stored.js';
import type { Reads } from '../../store/store.js';

/** The plans area's reads of `plans` for the areas that look at the queue without owning it (status). */
export function planReads(r: Reads) {
  return {
    ofUser: (userId: string): StoredPlan[] => r.byIndex('plans', 'user_id', userId),
  };
}
