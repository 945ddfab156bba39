import { z } from 'zod';
import type { QueueQuery, QueueResponse } from '../../contracts/plans.js';
import type { Reads } from '../../store/store.js';
import { jsonBytes, pageFit } from '../page-bytes.js';
import { decodeCursor, encodeCursor } from '../page-cursor.js';
import { planView, type StoredPlan } from './plan.js';

/** Queue order: oldest first, ties by plan id. */
export const byCreation = (a: Pick<StoredPlan, 'created_at' | 'plan_id'>, b: Pick<StoredPlan, 'created_at' | 'plan_id'>) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.plan_id < b.plan_id ? -1 : a.plan_id > b.plan_id ? 1 : 0;

/** Where a page of the queue ended: the last plan's creation time and id. */
const QueuePosition = z.tuple([z.literal('queue'), z.string(), z.string()]);

/**
 * One page of a user's plans in queue order, from the cursor on. With status all the queue is
 * every plan ever made, each of up to 50 actions with 10,000 characters of reasoning, so it is
 * read a page of PAGE_BYTES at a time.
 */
export function queuePage(store: Reads, userId: string, q: QueueQuery): QueueResponse {
  const status = q.status ?? 'proposed';
  const after = q.cursor ? decodeCursor(q.cursor, QueuePosition) : undefined;
  const position = after && { created_at: after[1], plan_id: after[2] };
  const plans = store
    .byIndex('plans', 'user_id', userId)
    .filter(
      (x) => (status === 'all' || x.status === status) && (q.task_id === undefined || x.task_id === q.task_id) && (!position || byCreation(x, position) > 0),
    )
    .sort(byCreation);
  const fit = pageFit(plans, (p) => jsonBytes(planView(p)));
  const page = plans.slice(0, fit).map(planView);
  const last = page[page.length - 1];
  return { plans: page, next_cursor: last && page.length < plans.length ? encodeCursor(['queue', last.created_at, last.plan_id]) : null };
}
