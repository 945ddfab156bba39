import type { CallQuery } from '../../../client/call-args.js';

/** What `kairos queue --status` takes: a plan status, or all (the API's QUEUE_FILTERS, without loading zod). */
export const QUEUE_STATUSES = ['proposed', 'approved', 'executed', 'rejected', 'edited', 'all'] as const satisfies readonly NonNullable<
  CallQuery<'GET /agent/queue'>['status']
>[];
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export const isQueueStatus = (s: string): s is QueueStatus => (QUEUE_STATUSES as readonly string[]).includes(s);
