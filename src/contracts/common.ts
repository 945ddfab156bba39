import { z } from 'zod';

/** An ISO 8601 date-time with an offset (or Z), as SPEC §2 requires on input. */
export const IsoDateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time with offset');

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().describe('stable snake_case code'),
      message: z.string(),
      trace_id: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() }).passthrough()).optional(),
    }),
  })
  .meta({ id: 'Error' });

/** Ids kept as given: 1–255 printable characters. */
export const ClientId = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e][\x20-\x7e]*$/, 'must be printable ASCII without leading space');

/** Query booleans arrive as strings. */
export const QueryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const QueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
