import { z } from 'zod';
import { TempoTagSchema, tagMinutes } from '../time/tags.js';
import { CalendarEvent, Rrule } from './calendar.js';
import { IsoDateTime } from './common.js';
import { MemoryTrace } from './memory.js';
import { NextCursor, PageCursor } from './page.js';
import { PLAN_STATUSES } from './status.js';
import { ACTION_KINDS } from './tempo.js';
import { TimeZone } from './users.js';

/**
 * Agent plans (SPEC §4 Plan, §5 Agent): the queue of proposals, their review and execution.
 * Problems inside `actions` answer 422 `plan_invalid` (structural), not `validation_failed`.
 */

export { ACTION_KINDS, PLAN_STATUSES };
export type ActionKind = (typeof ACTION_KINDS)[number];
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** More actions than this in one plan is a structural error (`plan_invalid`). */
export const MAX_ACTIONS = 50;

const TaskId = z.string().trim().min(1).max(255);
const Title = z.string().trim().min(1).max(1000);
const Minutes = z
  .number()
  .int('whole minutes')
  .min(0)
  .max(366 * 1440, 'at most a year');
const Confidence = z.number().min(0).max(1);

// ------------------------------------------------------------------ response shapes

export const Action = z
  .object({
    action_id: z.string().describe('ac_ id'),
    kind: z.enum(ACTION_KINDS),
    task_id: z.string(),
    title: z.string(),
    scheduled_for: IsoDateTime.describe('start (UTC); for reflect, when the reflection applies'),
    duration_minutes: z.number().int().describe('what will be booked (estimate with the duration bias applied)'),
    estimate_minutes: z.number().int().describe("the agent's own estimate"),
    tempo_tag: z.string().optional(),
    rrule: z.string().optional().describe("add_event: the event repeats by this RFC 5545 RRULE from scheduled_for, in the user's zone (one recurring event)"),
    event_uid: z.string().optional().describe('reschedule_event: the event moved; add_event: the event created, once executed'),
    content: z.string().optional().describe('reflect: the text of the reflection'),
    trace_uid: z.string().optional().describe('reflect: the reflection trace written, once executed'),
    reasoning: z.string(),
    confidence: Confidence,
    status: z.enum(PLAN_STATUSES),
    edited: z.boolean().optional().describe('changed by the person at approval'),
    original: z
      .object({
        title: z.string(),
        scheduled_for: IsoDateTime,
        duration_minutes: z.number().int(),
        task_id: z.string(),
        content: z.string().optional(),
        tempo_tag: z.string().optional(),
        rrule: z.string().optional(),
      })
      .optional()
      .describe('the proposed values of an edited action'),
    conflicts: z.array(z.string()).optional().describe('uids of calendar events the action overlaps (informative, not a violation)'),
    warnings: z.array(z.string()).optional().describe("what the person's own plan breaks that an agent's could not (blocked time): shown, not enforced"),
  })
  .meta({ id: 'Action' });
export type Action = z.infer<typeof Action>;

export const Plan = z
  .object({
    plan_id: z.string().describe('pl_ id'),
    user_id: z.string(),
    task_id: z.string(),
    status: z.enum(PLAN_STATUSES),
    prompt: z.string().nullable().describe('the prompt the planner answered; null for an agent’s own actions'),
    agent_id: z.string().nullable().describe('agent id of the proposing key (null: the user’s own key)'),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
    edited: z.boolean().describe('true once the person changed an action at approval'),
    reasoning: z.string(),
    actions: z.array(Action),
    trace_uid: z.string().describe('the agent_plan trace recording the proposal'),
    provider: z.string().optional().describe('planner provider that made the plan (prompt plans)'),
    model: z.string().nullable().optional(),
    reason: z.string().optional().describe('why it was rejected'),
    approved_at: IsoDateTime.optional(),
    executed_at: IsoDateTime.optional(),
    rejected_at: IsoDateTime.optional(),
    edited_at: IsoDateTime.optional().describe('when something execution produced was changed (status edited)'),
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof Plan>;

// ------------------------------------------------------------------ requests

/** One action as an agent proposes it; the server adds action_id and status. */
export const ActionInput = z
  .object({
    kind: z.enum(ACTION_KINDS),
    task_id: TaskId.optional().describe("default: the plan's task_id"),
    title: Title.optional().describe('required for add_event; reschedule_event: default the event title; reflect: default the start of content'),
    scheduled_for: IsoDateTime.optional().describe('required for add_event and reschedule_event (the new start); reflect: default now'),
    duration_minutes: Minutes.optional().describe(
      'required for add_event unless tempo_tag is a duration block; reschedule_event: default the event duration; reflect: default 0',
    ),
    estimate_minutes: Minutes.optional().describe('default duration_minutes'),
    tempo_tag: TempoTagSchema.optional(),
    rrule: Rrule.optional().describe("add_event only: one recurring event, repeating from scheduled_for in the user's zone (checked like /calendar/create's)"),
    event_uid: z.string().min(1).max(255).optional().describe('reschedule_event: the event to move (required)'),
    content: z.string().trim().min(1).max(100_000).optional().describe('reflect: the reflection (required)'),
    reasoning: z.string().max(10_000).optional().describe("why the agent proposes it (default '')"),
    confidence: Confidence.optional().describe('0–1, default 1'),
  })
  .strict()
  .superRefine((a, ctx) => {
    const need = (field: keyof typeof a, why: string) => {
      if (a[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `required: ${why}` });
    };
    if (a.kind !== 'add_event' && a.rrule !== undefined)
      ctx.addIssue({ code: 'custom', path: ['rrule'], message: 'rrule belongs to add_event: only a new event repeats' });
    if (a.kind === 'add_event') {
      need('title', 'an add_event names the event');
      need('scheduled_for', 'an add_event needs a start time');
      if (a.duration_minutes === undefined && (a.tempo_tag === undefined || tagMinutes(a.tempo_tag) === undefined))
        need('duration_minutes', 'an add_event needs a duration (or a duration tempo tag such as 25m)');
      if (a.duration_minutes === 0) ctx.addIssue({ code: 'custom', path: ['duration_minutes'], message: 'an event lasts at least a minute' });
      if (a.event_uid !== undefined)
        ctx.addIssue({ code: 'custom', path: ['event_uid'], message: 'event_uid belongs to reschedule_event; add_event creates its own event' });
    } else if (a.kind === 'reschedule_event') {
      need('event_uid', 'reschedule_event names the event to move');
      need('scheduled_for', 'reschedule_event needs the new start time');
      if (a.duration_minutes === 0) ctx.addIssue({ code: 'custom', path: ['duration_minutes'], message: 'an event lasts at least a minute' });
    } else {
      need('content', 'reflect needs the text of the reflection');
      if (a.event_uid !== undefined) ctx.addIssue({ code: 'custom', path: ['event_uid'], message: 'event_uid belongs to reschedule_event' });
    }
  });
export type ActionInput = z.infer<typeof ActionInput>;

const PLAN_INVALID = { code: 'plan_invalid' };

/**
 * The action list: each problem becomes an issue coded `plan_invalid` (a tag keeps its own
 * `invalid_tempo_tag`). The array is taken as unknown items so that zod's own type errors get the
 * code too; `items` documents the real shape in /openapi.json.
 */
export const ActionList = z
  .array(z.unknown())
  .transform((items, ctx) => {
    if (items.length === 0) ctx.addIssue({ code: 'custom', path: [], message: 'a plan needs at least one action', params: PLAN_INVALID });
    if (items.length > MAX_ACTIONS)
      ctx.addIssue({ code: 'custom', path: [], message: `a plan holds at most ${MAX_ACTIONS} actions, not ${items.length}`, params: PLAN_INVALID });
    const out: ActionInput[] = [];
    items.forEach((item, i) => {
      const r = ActionInput.safeParse(item);
      if (r.success) out.push(r.data);
      else
        for (const issue of r.error.issues) {
          const own = (issue as { params?: { code?: string } }).params;
          ctx.addIssue({ code: 'custom', path: [i, ...issue.path], message: issue.message, params: own?.code ? own : PLAN_INVALID });
        }
    });
    return out;
  })
  .meta({
    description: `the agent's own actions (1–${MAX_ACTIONS}); problems answer 422 plan_invalid`,
    items: (() => {
      const { $schema: _s, ...items } = z.toJSONSchema(ActionInput, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
        string,
        unknown
      >;
      return items;
    })(),
    maxItems: MAX_ACTIONS,
    minItems: 1,
  });

export const PlanContext = z
  .looseObject({
    memory: z.array(z.unknown()).optional().describe('traces (or text) the planner may use'),
    calendar: z.array(z.unknown()).optional().describe('events the planner may use'),
    now: IsoDateTime.optional().describe('reference time for relative dates (default: now)'),
    timezone: TimeZone.optional().describe("IANA zone for relative dates (default: the user's)"),
  })
  .describe('what the planner may use; `now` and `timezone` fix the reference time');
export type PlanContext = z.infer<typeof PlanContext>;

export const PlanRequest = z
  .object({
    prompt: z.string().trim().min(1).max(10_000).optional().describe('ask the planner (needs a configured planner)'),
    actions: ActionList.optional(),
    task_id: TaskId.optional().describe("the plan's task (default: the actions' common task_id, else the plan id)"),
    reasoning: z.string().max(10_000).optional().describe('why the agent proposes this plan'),
    context: PlanContext.optional(),
  })
  .strict()
  .refine((b) => b.prompt !== undefined || b.actions !== undefined, { message: 'give a prompt, or your own actions', path: ['actions'] });
export type PlanRequest = z.infer<typeof PlanRequest>;

export const QUEUE_FILTERS = [...PLAN_STATUSES, 'all'] as const;
export const QueueQuery = z
  .object({
    status: z.enum(QUEUE_FILTERS).optional().describe('default proposed; all = every plan'),
    task_id: z.string().optional(),
    cursor: PageCursor,
  })
  .strict();
export type QueueQuery = z.infer<typeof QueueQuery>;
export const QueueResponse = z.object({ plans: z.array(Plan).describe('oldest first'), next_cursor: NextCursor });
export type QueueResponse = z.infer<typeof QueueResponse>;

/**
 * Fields of an Action the person cannot change at approval. An edit may carry them (a client
 * that sends back the action as the API returned it, `{...action, title: "new"}`): a value equal
 * to the plan's is ignored, a different one is refused naming the field.
 */
export const ACTION_READ_ONLY = [
  'kind',
  'estimate_minutes',
  'event_uid',
  'trace_uid',
  'reasoning',
  'confidence',
  'edited',
  'original',
  'conflicts',
  'warnings',
] as const;
const readOnly = Object.fromEntries(
  ACTION_READ_ONLY.map((k) => [k, Action.shape[k].optional().describe("read-only: ignored when equal to the plan's value, 422 when it differs")]),
) as { [K in (typeof ACTION_READ_ONLY)[number]]: z.ZodOptional<(typeof Action.shape)[K]> };

/**
 * A change the person makes to one action when approving: only the fields to change
 * (`{action_id, title}`), or the whole action as the API returned it, edited.
 */
export const ActionEdit = z
  .object({
    action_id: z.string().min(1),
    title: Title.optional(),
    scheduled_for: IsoDateTime.optional(),
    duration_minutes: Minutes.optional(),
    task_id: TaskId.optional(),
    tempo_tag: TempoTagSchema.nullable().optional().describe('null removes the tag'),
    rrule: Rrule.nullable().optional().describe('add_event only: a new repetition; null makes it a one-off event'),
    content: z.string().trim().min(1).max(100_000).optional().describe('reflect only'),
    status: z.enum(PLAN_STATUSES).optional().describe('"rejected" leaves this action out (it is not executed); the current status changes nothing'),
    ...readOnly,
  })
  .strict()
  .refine((e) => Object.keys(e).length > 1, { message: 'name at least one field to change', path: ['action_id'] });
export type ActionEdit = z.infer<typeof ActionEdit>;

export const ApproveRequest = z
  .object({
    plan_id: z.string().min(1),
    actions: z
      .array(ActionEdit)
      .max(MAX_ACTIONS)
      .optional()
      .describe('edits of actions, partial or whole Action objects as returned (re-checked against the constraints; the plan becomes edited: true)'),
    execute: z.boolean().optional().describe('execute at once (approval and execution commit together or not at all)'),
  })
  .strict();
export type ApproveRequest = z.infer<typeof ApproveRequest>;

export const RejectRequest = z.object({ plan_id: z.string().min(1), reason: z.string().trim().min(1).max(10_000).optional() }).strict();

export const ExecuteRequest = z
  .object({
    task_id: z.string().min(1).optional().describe('execute every approved plan of this task'),
    plan_id: z.string().min(1).optional(),
    simulate: z.boolean().optional().describe('report what would change and commit nothing (a proposed plan is simulated as approved)'),
  })
  .strict()
  .refine((b) => (b.task_id === undefined) !== (b.plan_id === undefined), { message: 'give exactly one of task_id and plan_id', path: ['plan_id'] });
export type ExecuteRequest = z.infer<typeof ExecuteRequest>;

export const ActionResult = z
  .object({
    plan_id: z.string(),
    action_id: z.string(),
    kind: z.enum(ACTION_KINDS),
    event: CalendarEvent.optional().describe('the event created or moved'),
    before: CalendarEvent.optional().describe('reschedule_event: the event as it was'),
    trace: MemoryTrace.optional().describe('the trace written'),
  })
  .meta({ id: 'ActionResult' });
export type ActionResult = z.infer<typeof ActionResult>;

export const ExecutionLogEntry = z.object({
  plan_id: z.string(),
  action_id: z.string().optional(),
  message: z.string(),
});
export type ExecutionLogEntry = z.infer<typeof ExecutionLogEntry>;

export const ExecuteResponse = z
  .object({
    plans: z.array(Plan).describe('the plans as they are (or would be) after execution'),
    log: z.array(ExecutionLogEntry),
    results: z.array(ActionResult),
    simulated: z.boolean(),
  })
  .meta({ id: 'Execution' });
export type ExecuteResponse = z.infer<typeof ExecuteResponse>;

export const ApproveResponse = Plan.extend({
  execution: ExecuteResponse.optional().describe('with execute: true'),
});

export const Revision = z
  .union([
    z.string().trim().min(1).max(100_000).describe('free text: what should have been different'),
    z
      .object({
        action_id: z.string().optional().describe('which action of the plan (default: the only or first one with a duration)'),
        duration_minutes: Minutes.optional().describe('how long it really took or should take: feeds duration_biases'),
        title: Title.optional(),
        scheduled_for: IsoDateTime.optional(),
        content: z.string().max(100_000).optional(),
        text: z.string().max(100_000).optional(),
      })
      .strict(),
  ])
  .describe('a correction, logged to guide later plans');
export type Revision = z.infer<typeof Revision>;

export const FeedbackRequest = z
  .object({
    uid: z.string().min(1).max(255).describe('a trace uid, or a plan id (its agent_plan trace)'),
    rating: z.number().int().min(1).max(5).optional(),
    comment: z.string().trim().min(1).max(100_000).optional().describe("kept in the trace's notes"),
    revision: Revision.optional(),
  })
  .strict()
  .refine((b) => b.rating !== undefined || b.comment !== undefined || b.revision !== undefined, {
    message: 'give a rating, a comment or a revision',
    path: ['rating'],
  });
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;
