import { z } from 'zod';
import { IsoDateTime } from './common.js';

/**
 * Shapes of the MCP server that no HTTP endpoint has (every other tool takes and returns an
 * endpoint's own schemas, src/contracts/endpoints.ts).
 */

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 24-hour');

export const FreeSlotsRequest = z
  .object({
    start: IsoDateTime.describe('window start (ISO 8601 with offset)'),
    end: IsoDateTime.describe('window end; at most 31 days after start'),
    min_minutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .optional()
      .describe('shortest slot worth listing (default 30)'),
    day_from: ClockTime.optional().describe("only time after this local time of each day, in the user's zone (e.g. 09:00)"),
    day_to: ClockTime.optional().describe("only time before this local time of each day, in the user's zone (e.g. 18:00)"),
  })
  .strict();
export type FreeSlotsRequest = z.infer<typeof FreeSlotsRequest>;

export const FreeSlots = z.object({
  timezone: z.string().describe("the user's zone, which day_from/day_to were read in"),
  slots: z.array(z.object({ start: IsoDateTime, end: IsoDateTime, minutes: z.number().int() })),
  busy_count: z.number().int().describe('timed, non-cancelled occurrences in the window (all-day events do not block time)'),
});
export type FreeSlots = z.infer<typeof FreeSlots>;
