import { z } from 'zod';

export const PLAN_STATUSES = ['proposed', 'approved', 'executed', 'rejected', 'edited'] as const;

export const AgentStatus = z.object({
  status: z.literal('ok'),
  uptime_s: z.number(),
  version: z.string(),
  queue: z.object(Object.fromEntries(PLAN_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof PLAN_STATUSES)[number], z.ZodNumber>),
  planner: z.object({ provider: z.string(), model: z.string().nullable() }),
  store: z.object({ traces: z.number().int(), events: z.number().int(), plans: z.number().int(), bytes: z.number().int() }),
});
export type AgentStatus = z.infer<typeof AgentStatus>;
