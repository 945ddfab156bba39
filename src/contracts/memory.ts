import { z } from 'zod';
import { TempoTagSchema } from '../time/tags.js';
import { ClientId, IsoDateTime, QueryBool, QueryInt } from './common.js';
import { NextCursor, PAGE_SIZE_TEXT, PageCursor } from './page.js';

export const TRACE_TYPES = ['goal', 'observation', 'reflection', 'agent_plan', 'calendar_event', 'transition'] as const;
export const TraceTypeSchema = z.enum(TRACE_TYPES).describe('kind of trace; `transition` traces are recorded by the server and immutable');
export type TraceType = (typeof TRACE_TYPES)[number];

/** Types a client may push or edit into: transitions are the server's record of plan state changes. */
export const CLIENT_TRACE_TYPES = TRACE_TYPES.filter((t) => t !== 'transition') as Exclude<TraceType, 'transition'>[];
const ClientTraceType = z
  .enum(CLIENT_TRACE_TYPES as [Exclude<TraceType, 'transition'>, ...Exclude<TraceType, 'transition'>[]])
  .describe('goal, observation, reflection, agent_plan or calendar_event (transition traces are recorded by the server)');

const TaskId = z.string().min(1).max(255).describe('task the trace belongs to');
const Importance = z.number().int().min(1).max(5).describe('1 (low) – 5 (high)');
const Rating = z.number().min(1).max(5).describe('1 – 5');
const Content = z.string().min(1).max(100_000);
const Notes = z.string().max(100_000);
const TraceIds = z.array(ClientId).max(1000);
const Fields = z.record(z.string(), z.unknown()).describe('structured data (transition traces keep {from, to, actor, plan_id} here)');

/**
 * A space is a separate memory inside one user (a project, a conversation): search ranks within
 * one space, with keyword weights and the semantic neighbour correction measured on that space
 * alone. Traces without a space are the user's default space.
 */
export const SpaceSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit')
  .describe('a separate memory of the user (a project, a conversation); absent: the default space');

/**
 * The key of the search indexes a trace belongs to: its user, or its user and space. The unit
 * separator cannot occur in a space name, so no space's key equals another user's.
 */
export const searchScopeKey = (userId: string, space?: string): string => (space === undefined ? userId : `${userId}\u001f${space}`);
/** The search scope a trace is indexed in. */
export const traceScope = (t: { user_id: string; space?: string }): string => searchScopeKey(t.user_id, t.space);

export const MemoryTrace = z
  .object({
    uid: z.string(),
    user_id: z.string(),
    type: TraceTypeSchema,
    task_id: z.string(),
    timestamp: IsoDateTime,
    content: z.string(),
    importance: z.number().int(),
    tempo_tag: z.string().optional(),
    version: z.number().int().min(1),
    linked_trace_ids: z.array(z.string()),
    linked_event_uid: z.string().optional(),
    child_trace_ids: z.array(z.string()),
    feedback_rating: z.number().optional(),
    notes: z.string().optional(),
    authored_by: z.string().describe('agent id of the key that wrote it, or the user id'),
    chat_url: z.string().optional(),
    valid_until: IsoDateTime.optional().describe('after this instant the trace drops out of pull and search unless include_expired=true'),
    fields: Fields.optional(),
    space: SpaceSchema.optional(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'MemoryTrace' });
/** A memory trace as stored and returned. Optional fields are absent rather than null. */
export type StoredTrace = z.infer<typeof MemoryTrace>;

/** One trace of a push: the seed's fields; the server fills uid, version, user_id and the dates. */
export const TraceInput = z
  .object({
    uid: ClientId.optional().describe('kept as given; a tr_ id is made when absent'),
    type: ClientTraceType,
    task_id: TaskId,
    timestamp: IsoDateTime.optional().describe('when it happened (default: now)'),
    content: Content,
    importance: Importance.optional().describe('1 – 5, default 3'),
    tempo_tag: TempoTagSchema.optional(),
    linked_trace_ids: TraceIds.optional().describe('uids of existing traces of the same user (or of this batch)'),
    linked_event_uid: z.string().min(1).max(255).optional(),
    child_trace_ids: TraceIds.optional(),
    feedback_rating: Rating.optional(),
    notes: Notes.optional(),
    authored_by: z.string().min(1).max(255).optional().describe("ignored for agent keys: the key's agent id wins"),
    chat_url: z.string().url().max(2048).optional(),
    valid_until: IsoDateTime.optional(),
    fields: Fields.optional(),
    space: SpaceSchema.optional(),
  })
  .strict();
export type TraceInput = z.infer<typeof TraceInput>;

export const PushRequest = z.object({ traces: z.array(TraceInput).min(1).max(10_000) }).strict();
export const PushResponse = z.object({ saved: z.array(z.object({ uid: z.string(), timestamp: IsoDateTime })) });

/** Fields PATCH /memory/edit may change; null clears an optional one. */
const EDITABLE = {
  type: ClientTraceType,
  task_id: TaskId,
  timestamp: IsoDateTime,
  content: Content,
  importance: Importance,
  tempo_tag: TempoTagSchema.nullable(),
  linked_trace_ids: TraceIds,
  linked_event_uid: z.string().min(1).max(255).nullable(),
  child_trace_ids: TraceIds,
  feedback_rating: Rating.nullable(),
  notes: Notes.nullable(),
  chat_url: z.string().url().max(2048).nullable(),
  valid_until: IsoDateTime.nullable(),
  fields: Fields.nullable(),
  space: SpaceSchema.nullable(),
};
export const EDITABLE_FIELDS = Object.keys(EDITABLE) as (keyof typeof EDITABLE)[];
/** Kept by the server: an edit naming one of them is refused (422), never silently dropped. */
export const READ_ONLY_FIELDS = ['uid', 'user_id', 'version', 'created_at', 'updated_at', 'authored_by'] as const;

export const TraceUpdatesSchema = z
  .object(EDITABLE)
  .partial()
  .catchall(z.unknown())
  .superRefine((v, ctx) => {
    const keys = Object.keys(v);
    if (keys.length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'no field to change' });
    for (const k of keys) {
      // Own properties only: `constructor` or `toString` are inherited by every object, not fields.
      if (Object.hasOwn(EDITABLE, k)) continue;
      const ro = (READ_ONLY_FIELDS as readonly string[]).includes(k);
      ctx.addIssue({ code: 'custom', path: [k], message: ro ? `${k} is not editable` : `unknown field ${k}` });
    }
  });
/** What an edit may change: the editable fields, null clearing an optional one. */
export type TraceUpdates = Partial<{ [K in keyof typeof EDITABLE]: z.output<(typeof EDITABLE)[K]> }>;

export const EditRequest = z
  .object({
    uid: z.string().min(1).max(255),
    updates: TraceUpdatesSchema,
    expected_version: z.number().int().min(1).optional().describe('refuse (409 version_conflict) unless the trace is at this version'),
  })
  .strict();

export const PullQuery = z
  .object({
    user_id: z.string().optional().describe("defaults to the caller; another user's → 403 unless admin"),
    task_id: z.string().optional(),
    tempo_tag: TempoTagSchema.optional(),
    type: TraceTypeSchema.optional(),
    space: SpaceSchema.optional().describe('only traces of this space (absent: traces of every space)'),
    start_time: IsoDateTime.optional().describe('inclusive'),
    end_time: IsoDateTime.optional().describe('inclusive'),
    include_expired: QueryBool.optional().describe('also traces whose valid_until has passed'),
    limit: QueryInt(1, 1000).optional().describe(`default 100, max 1000; a page also ends before ${PAGE_SIZE_TEXT} (a longer trace comes alone)`),
    cursor: PageCursor,
  })
  .strict();
export type PullQuery = z.infer<typeof PullQuery>;

export const PullResponse = z.object({ traces: z.array(MemoryTrace), next_cursor: NextCursor });

export const HistoryQuery = z.object({ uid: z.string().min(1).max(255), cursor: PageCursor }).strict();
export type HistoryQuery = z.infer<typeof HistoryQuery>;
export const PatchOp = z
  .object({ op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']), path: z.string(), value: z.unknown().optional(), from: z.string().optional() })
  .describe('RFC 6902 operation');
export const HistoryResponse = z.object({
  uid: z.string(),
  versions: z.array(
    z.object({
      version: z.number().int(),
      timestamp: IsoDateTime.describe('when this version was made'),
      actor: z.string(),
      patch: z.array(PatchOp).describe('from the previous version; version 1 adds the whole trace at ""'),
    }),
  ),
  next_cursor: NextCursor,
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;

export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
/** The largest `limit` of a search. */
export const MAX_SEARCH_LIMIT = 200;
export const SearchRequest = z
  .object({
    query: z.string().trim().min(1).max(1000),
    mode: z.enum(SEARCH_MODES).optional().describe('keyword (BM25), semantic (sentence vectors, cosine) or hybrid (both fused; the default)'),
    space: SpaceSchema.optional().describe('search this space of the caller, ranked by its own statistics (absent: the default space)'),
    type: TraceTypeSchema.optional(),
    tempo_tag: TempoTagSchema.optional(),
    task_id: z.string().optional(),
    start_time: IsoDateTime.optional().describe('only traces at or after this instant (timestamp, inclusive)'),
    end_time: IsoDateTime.optional().describe('only traces at or before this instant (timestamp, inclusive)'),
    include_expired: z.boolean().optional(),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`default 20, at most ${MAX_SEARCH_LIMIT}; the ranking does not depend on it (the first n of a larger limit are the top n)`),
  })
  .strict();
export type SearchRequest = z.infer<typeof SearchRequest>;

/** A hit carries its whole content up to this many characters, and a snippet of at most this many otherwise. */
export const HIT_TEXT_MAX = 1000;
/** A hit carries `fields` when their JSON has at most this many characters. */
export const HIT_FIELDS_MAX = 2000;

/** Offsets into the trace's content (UTF-16 code units, end exclusive) of the query's literal matches. */
const Highlights = z
  // Pairs as two-item arrays rather than tuples: `prefixItems` is refused by strict MCP clients.
  .array(z.array(z.number().int().min(0)).length(2))
  .describe("[start, end) offsets into the trace's content of words matching the query, in order");

export const SearchSnippet = z
  .object({
    text: z.string().describe(`content.slice(start, end): at most ${HIT_TEXT_MAX} characters around the best match`),
    start: z.number().int().min(0),
    end: z.number().int().min(0),
  })
  .describe(`for a trace whose content is longer than ${HIT_TEXT_MAX} characters, in place of content`);

export const SearchResult = z.object({
  uid: z.string(),
  type: TraceTypeSchema,
  task_id: z.string(),
  timestamp: IsoDateTime,
  tempo_tag: z.string().optional(),
  space: z.string().optional(),
  summary: z.string(),
  content: z.string().optional().describe(`the whole content, when it has at most ${HIT_TEXT_MAX} characters`),
  snippet: SearchSnippet.optional(),
  highlights: Highlights,
  content_length: z.number().int().describe('characters of the whole content'),
  fields: Fields.optional().describe(`the trace's fields, when their JSON has at most ${HIT_FIELDS_MAX} characters`),
  fields_omitted: z.literal(true).optional().describe(`the trace has fields whose JSON is longer than ${HIT_FIELDS_MAX} characters: fetch the trace`),
  score: z.number().min(0).max(1),
});
export type SearchResult = z.infer<typeof SearchResult>;
export const EmbeddingsInfo = z
  .object({
    provider: z.enum(['builtin', 'openai']).describe('builtin: the models shipped with kairos; openai: the configured OpenAI-compatible server'),
    model: z.string(),
    fallback_reason: z
      .string()
      .optional()
      .describe('why the configured provider (or, with mode_used keyword, semantic search itself) could not answer this query'),
    preparing: z
      .string()
      .optional()
      .describe(
        'first start of an installation only: the sentence encoder half of the built-in model is still being prepared, and its word vectors answer alone until then',
      ),
  })
  .describe('the embeddings behind the semantic part of this answer');
export type EmbeddingsInfo = z.infer<typeof EmbeddingsInfo>;
export const SearchResponse = z.object({
  results: z.array(SearchResult),
  mode: z.enum(SEARCH_MODES).describe('the mode asked for (default hybrid)'),
  mode_used: z.enum(SEARCH_MODES).describe('the mode that produced the results: keyword while the built-in model is still being prepared on first start'),
  embeddings: EmbeddingsInfo.optional().describe('present for semantic and hybrid queries'),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const TraceSummaryRequest = z
  .object({
    trace_ids: z.array(z.string().min(1).max(255)).min(1).max(1000),
    max_token_count: z.number().int().min(1).max(1_000_000).optional().describe('cap on the sum of the summaries’ tokens (o200k)'),
  })
  .strict();
export const TraceSummary = z.object({
  uid: z.string(),
  type: TraceTypeSchema,
  task_id: z.string(),
  timestamp: IsoDateTime,
  summary: z.string(),
  tokens: z.number().int().describe('o200k tokens of summary'),
});
export const TraceSummaryResponse = z.object({
  summaries: z.array(TraceSummary),
  token_count: z.number().int().describe('sum of the summaries’ tokens'),
  truncated: z.boolean().describe('true when max_token_count left traces out or shortened a summary'),
});

export const TraceDumpRequest = z
  .object({
    trace_uid: z.string().min(1).optional(),
    task_id: z.string().min(1).optional(),
    linked_event_uid: z.string().min(1).optional(),
  })
  .strict()
  .refine((v) => [v.trace_uid, v.task_id, v.linked_event_uid].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of trace_uid, task_id, linked_event_uid',
  });
export const TraceLink = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(['linked_trace', 'child_trace', 'linked_event']),
});
export const TraceDumpResponse = z.object({
  traces: z.array(MemoryTrace),
  links: z.array(TraceLink).describe('causal links both ways: every edge touching a dumped trace'),
  profile: z.record(z.string(), z.unknown()).describe('the user’s tempo profile and time zone'),
});
