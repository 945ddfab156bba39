import { z } from 'zod';

/** `GET /debug/event-loop`: the longest the event loop was held since the previous read. */
export const EventLoopGap = z.object({
  worst_gap_ms: z.number().describe('largest gap between two ticks of a timer set to fire every interval_ms (the loop was held that long, less interval_ms)'),
  worst_hold_ms: z
    .number()
    .describe('the same gaps less the time the daemon waited for a CPU (other processes running): how long the daemon itself held the loop'),
  hold_measured: z
    .enum(['schedstat', 'wall'])
    .describe('schedstat: the wait for a CPU is known (Linux /proc/thread-self/schedstat); wall: it is not, and worst_hold_ms is worst_gap_ms'),
  interval_ms: z.number(),
  ticks: z.number().int().describe('ticks counted in the window'),
  since: z.string().describe('start of the window: the previous read, or the first one'),
});
