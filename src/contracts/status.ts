import { z } from 'zod';

export const PLAN_STATUSES = ['proposed', 'approved', 'executed', 'rejected', 'edited'] as const;

/** The built-in embedding model: ready, or being prepared (first start without its files), or unavailable. */
export const ModelStatus = z.object({
  state: z.enum(['ready', 'preparing', 'unavailable']),
  step: z.string().nullable().describe('what is being prepared, while preparing'),
  progress: z.number().min(0).max(1).nullable().describe('fraction of the step done, when known'),
  detail: z.string().optional().describe('why the model (or a part of it) is unavailable'),
});
export type ModelStatus = z.infer<typeof ModelStatus>;

export const AgentStatus = z.object({
  status: z.literal('ok'),
  uptime_s: z.number(),
  version: z.string(),
  queue: z.object(Object.fromEntries(PLAN_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof PLAN_STATUSES)[number], z.ZodNumber>),
  planner: z.object({ provider: z.string(), model: z.string().nullable() }),
  store: z.object({ traces: z.number().int(), events: z.number().int(), plans: z.number().int(), bytes: z.number().int() }),
  model: ModelStatus.optional(),
  sync: z
    .object({
      accounts: z.array(
        z.object({
          name: z.string(),
          last_sync_at: z.string().nullable(),
          last_counts: z.record(z.string(), z.number()).nullable(),
          last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
        }),
      ),
      subscriptions: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          last_refresh_at: z.string().nullable(),
          event_count: z.number().int(),
          last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
        }),
      ),
    })
    .optional()
    .describe("the caller's CalDAV accounts and subscriptions: last sync, counts, last error"),
});
export type AgentStatus = z.infer<typeof AgentStatus>;
