import { z } from 'zod';
import { EVENT_SOURCES } from './calendar.js';
import { IsoDateTime } from './common.js';

/** One change of the person's that committed something and can be taken back. */
export const Change = z
  .object({
    id: z
      .string()
      .describe(
        'pl_ id (an executed plan), im_ id (an import), tr_ id (the trace of an event added, removed or edited) or tr_…#N (version N of an edited trace)',
      ),
    kind: z.enum(['plan', 'import', 'edit', 'add', 'remove', 'trace_edit']),
    at: IsoDateTime.describe('when it was committed'),
    summary: z.string().describe('what it did, in words'),
    undo: z.string().describe('what undoing it will do, in words'),
    events: z.number().int().describe('how many events undoing it touches'),
  })
  .meta({ id: 'Change' });
export type Change = z.infer<typeof Change>;

export const ChangesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).optional().describe('default 10') });
export const ChangeList = z.object({ changes: z.array(Change).describe('newest first') });

export const UndoRequest = z
  .object({
    id: z.string().min(1).optional().describe('the change to undo (default: the newest)'),
    simulate: z.boolean().optional().describe('say what would be undone, change nothing'),
  })
  .strict();
export const UndoResponse = z.object({ change: Change, undone: z.boolean().describe('false with simulate') });

export const RemoveManyRequest = z
  .object({
    import_id: z.string().min(1).optional().describe('every event this import created'),
    source: z.enum(EVENT_SOURCES).optional().describe('every event of this source'),
  })
  .strict()
  .refine((r) => Boolean(r.import_id) !== Boolean(r.source), { message: 'give exactly one of import_id and source' });
export const RemoveManyResponse = z.object({ removed: z.number().int(), trace_uid: z.string().optional() });
