import { z } from 'zod';
import { TempoTagSchema } from '../time/tags.js';
import { IsoDateTime, QueryBool, QueryInt } from './common.js';
import { MemoryTrace, PatchOp, TraceTypeSchema } from './memory.js';
import { PAGE_SIZE_TEXT } from './page.js';

/**
 * Context export (SPEC §5, seed §4.8): the query of GET /context/export, its response shapes and
 * the checkpoints list. Parameters that belong to one mode are refused (422) in the others, so a
 * mistyped request never silently exports something else.
 */

export const EXPORT_FORMATS = ['summary', 'full', 'linked', 'diff'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const GROUP_BY = ['day', 'task', 'trace_type'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const DEFAULT_EXPORT_LIMIT = 100;
export const MAX_EXPORT_LIMIT = 1000;

/** A `cp_` prefix is reserved for ids, so a `from_checkpoint` value is never ambiguous. */
export const CheckpointName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\x21-\x7e][\x20-\x7e]*$/, 'printable ASCII without leading space')
  .refine((s) => !s.startsWith('cp_'), 'names starting with cp_ are reserved for checkpoint ids')
  .describe('checkpoint name, unique per user (1–100 printable characters, not starting with cp_)');

const CheckpointRef = z.string().min(1).max(100).describe('a checkpoint name or its cp_ id');

const DIFF_ONLY = ['since', 'until', 'from_checkpoint', 'to_checkpoint'] as const;

export const ExportQuery = z
  .object({
    user_id: z.string().min(1).max(255).describe("required; another user's → 403 unless admin"),
    export_format: z.enum(EXPORT_FORMATS).describe('summary | full | linked | diff'),
    start_time: IsoDateTime.optional().describe('traces with timestamp at or after (inclusive)'),
    end_time: IsoDateTime.optional().describe('traces with timestamp at or before (inclusive)'),
    tempo_tag: TempoTagSchema.optional(),
    task_id: z.string().min(1).max(255).optional(),
    type: TraceTypeSchema.optional().describe('only traces of this type'),
    group_by: z.enum(GROUP_BY).optional().describe("day (in the user's time zone) | task | trace_type → groups: [{key, results}]"),
    include_feedback: QueryBool.optional().describe('keep feedback_rating and notes (default false)'),
    include_expired: QueryBool.optional().describe('also traces whose valid_until has passed (default false; diff ignores expiry)'),
    max_token_count: QueryInt(1, 1_000_000).optional().describe('summary only: hard cap on the sum of the items’ summary tokens (o200k)'),
    since: IsoDateTime.optional().describe('diff: the earlier instant (traces as they were then)'),
    until: IsoDateTime.optional().describe('diff: the later instant (default now)'),
    from_checkpoint: CheckpointRef.optional().describe('diff: compare from this checkpoint (name or cp_ id)'),
    to_checkpoint: CheckpointRef.optional().describe('diff: compare to this checkpoint (default the current state)'),
    checkpoint: CheckpointName.optional().describe('save the version of every trace this export selects (all pages) under this name'),
    limit: QueryInt(1, MAX_EXPORT_LIMIT)
      .optional()
      .describe(
        `items per page (default ${DEFAULT_EXPORT_LIMIT}, max ${MAX_EXPORT_LIMIT}); a full, linked or diff page also ends before ${PAGE_SIZE_TEXT} (a longer item comes alone)`,
      ),
    cursor: z.string().min(1).max(2000).optional().describe('next_cursor of the previous page'),
  })
  .strict()
  .superRefine((q, ctx) => {
    const fail = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.export_format === 'diff') {
      if ((q.since === undefined) === (q.from_checkpoint === undefined)) fail('since', 'a diff export needs exactly one of since or from_checkpoint');
      if (q.until !== undefined && q.to_checkpoint !== undefined) fail('until', 'give until or to_checkpoint, not both');
      if (q.since !== undefined && q.until !== undefined && Date.parse(q.since) > Date.parse(q.until)) fail('until', 'until is before since');
    } else {
      for (const k of DIFF_ONLY) if (q[k] !== undefined) fail(k, `${k} applies to export_format=diff only`);
    }
    if (q.max_token_count !== undefined && q.export_format !== 'summary') fail('max_token_count', 'max_token_count applies to export_format=summary only');
    if (q.start_time !== undefined && q.end_time !== undefined && Date.parse(q.start_time) > Date.parse(q.end_time))
      fail('end_time', 'end_time is before start_time');
  });
export type ExportQuery = z.infer<typeof ExportQuery>;

export const SummaryItem = z
  .object({
    uid: z.string(),
    type: TraceTypeSchema,
    task_id: z.string(),
    timestamp: IsoDateTime,
    summary: z.string().describe('compressed text: the trace’s own words with filler dropped, never invented'),
    feedback_rating: z.number().optional().describe('with include_feedback=true'),
  })
  .meta({ id: 'ExportSummaryItem' });
export type SummaryItem = z.infer<typeof SummaryItem>;

export const ExportedTrace = MemoryTrace.omit({ authored_by: true, chat_url: true })
  .extend({ depth: z.number().int().min(0).optional().describe('linked: link hops from a trace matching the filters (0 = it matched)') })
  .meta({ id: 'ExportedTrace', description: 'a trace without authored_by and chat_url (and without feedback_rating and notes unless include_feedback=true)' });

export const DiffChange = z.object({
  uid: z.string(),
  from_version: z.number().int(),
  to_version: z.number().int(),
  patch: z.array(PatchOp).describe('RFC 6902 patch from the earlier to the later state'),
});
export const DiffResult = z
  .object({
    added: z.array(ExportedTrace),
    removed: z.array(ExportedTrace).describe('as they were at the earlier point'),
    changed: z.array(DiffChange),
  })
  .meta({ id: 'ExportDiff' });
export type DiffResult = z.infer<typeof DiffResult>;

const Results = z.union([z.array(SummaryItem), z.array(ExportedTrace), DiffResult]);

export const CheckpointInfo = z
  .object({
    id: z.string().describe('cp_ id'),
    name: z.string(),
    created_at: IsoDateTime,
    export_format: z.enum(EXPORT_FORMATS),
    trace_count: z.number().int(),
    filters: z.record(z.string(), z.unknown()).describe('the filters of the export that saved it'),
  })
  .meta({ id: 'Checkpoint' });
export type CheckpointInfo = z.infer<typeof CheckpointInfo>;

export const ExportResponse = z.object({
  user_id: z.string(),
  export_format: z.enum(EXPORT_FORMATS),
  generated_at: IsoDateTime,
  results: Results.optional().describe('without group_by'),
  groups: z
    .array(z.object({ key: z.string(), results: Results }))
    .optional()
    .describe('with group_by'),
  events: z.array(z.record(z.string(), z.unknown())).optional().describe('linked: calendar events reached through linked_event_uid'),
  next_cursor: z.string().nullable().describe('null on the last page'),
  checkpoint: CheckpointInfo.optional().describe('the checkpoint this export saved'),
  token_count: z.number().int().optional().describe('summary: sum of the items’ summary tokens (o200k)'),
  truncated: z.boolean().optional().describe('summary: max_token_count left items out or shortened one'),
});
export type ExportResponse = z.infer<typeof ExportResponse>;

export const CheckpointsQuery = z
  .object({ user_id: z.string().min(1).max(255).optional().describe("defaults to the caller; another user's → 403 unless admin") })
  .strict();
export const CheckpointsResponse = z.object({ checkpoints: z.array(CheckpointInfo).describe('oldest first') });
