import { z } from 'zod';
import { FreeTime } from './calendar.js';
import { IsoDateTime } from './common.js';
import { SearchResult, TraceTypeSchema } from './memory.js';
import { Plan, PlanContext } from './plans.js';
import { ACTION_KINDS } from './tempo.js';

/**
 * The planner and chat (SPEC §5 Chat, Planner): `POST /chat/plan-preview` and `POST /chat/respond`.
 * The context is the one `POST /agent/plan` takes: `now` and `timezone` fix the reference time,
 * `calendar` adds busy time the server does not know, `memory` adds text to ground answers in.
 */

export { PlanContext };

const Prompt = z.string().trim().min(1, 'say something to plan').max(10_000);
const TaskId = z.string().trim().min(1).max(255);

export const PreviewRequest = z
  .object({
    prompt: Prompt,
    task_id: TaskId.optional().describe('task every proposed action belongs to (default: one per action, from its title)'),
    context: PlanContext.optional(),
  })
  .strict();
export type PreviewRequest = z.infer<typeof PreviewRequest>;

export const PreviewItem = z
  .object({
    kind: z.enum(['event', 'trace']).describe('event: a calendar event to add or move; trace: a reflection to write'),
    action_kind: z.enum(ACTION_KINDS).describe('the plan action this item becomes'),
    task_id: z.string(),
    title: z.string(),
    scheduled_for: IsoDateTime.describe('start (UTC)'),
    end: IsoDateTime.describe('scheduled_for + duration_minutes'),
    local: z.string().describe("the start on the user's wall clock, e.g. Tue 2026-03-10 15:00"),
    duration_minutes: z.number().int().describe('what would be booked (the duration bias applied to an estimate)'),
    estimate_minutes: z.number().int().describe("the planner's own estimate"),
    tempo_tag: z.string().optional(),
    rrule: z.string().optional().describe('one recurring event: its RFC 5545 RRULE from scheduled_for (the first occurrence)'),
    event_uid: z.string().optional().describe('the event a reschedule moves'),
    type: TraceTypeSchema.optional().describe('trace items: reflection'),
    timestamp: IsoDateTime.optional().describe('trace items: when the reflection applies'),
    content: z.string().optional().describe('trace items: the reflection'),
    reasoning: z.string().describe('the rule that placed it: explicit time, tag range, first free slot after named conflicts, blocked time avoided…'),
    confidence: z.number().min(0).max(1),
    conflicts: z.array(z.string()).describe('uids of events it overlaps (an explicit time is kept)'),
    warnings: z.array(z.string()).describe('what would make the plan fail or surprise (blocked time, budget)'),
  })
  .meta({ id: 'PreviewItem' });
export type PreviewItem = z.infer<typeof PreviewItem>;

export const Skipped = z.object({ text: z.string(), reason: z.string() });

export const PreviewResponse = z
  .object({
    items: z.array(PreviewItem).describe('nothing is committed'),
    reply: z.string().describe('a sentence for a person: what would be planned, or why nothing'),
    reasoning: z.string(),
    provider: z.string().describe('the provider that made the items (default or openai)'),
    model: z.string().nullable(),
    fallback: z.string().optional().describe('why the configured provider was not used (timeout, invalid output, refusal)'),
    skipped: z.array(Skipped).describe('requests understood but not placed, with the reason'),
    timezone: z.string(),
    now: IsoDateTime.describe('the reference time used'),
  })
  .meta({ id: 'PlanPreview' });
export type PreviewResponse = z.infer<typeof PreviewResponse>;

export const ChatCommand = z
  .object({
    label: z.string(),
    cli: z.string().describe('the kairos command line'),
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']),
    path: z.string(),
    body: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ChatCommand' });
export type ChatCommand = z.infer<typeof ChatCommand>;

export const ProposedTrace = z
  .object({
    type: z.enum(['observation', 'goal', 'reflection']),
    task_id: z.string(),
    content: z.string(),
    timestamp: IsoDateTime,
    importance: z.number().int().min(1).max(5),
    tempo_tag: z.string().optional(),
  })
  .describe('a trace as POST /memory/push takes it; not saved')
  .meta({ id: 'ProposedTrace' });
export type ProposedTrace = z.infer<typeof ProposedTrace>;

export const RespondRequest = PreviewRequest;
export type RespondRequest = PreviewRequest;

export const CHAT_INTENTS = ['plan', 'note', 'question', 'free', 'none'] as const;

export const RespondResponse = z
  .object({
    reply: z.string(),
    intent: z
      .enum(CHAT_INTENTS)
      .describe(
        'plan: a plan entered the queue; note: traces proposed; question: answered from memory; free: a question about free time, answered from the calendar; none: nothing to do',
      ),
    commands: z.array(ChatCommand).describe('what the client could run next'),
    proposed_traces: z.array(ProposedTrace).describe('notes read from the prompt, not saved (POST /memory/push saves them)'),
    plan: Plan.optional().describe('the plan the prompt put in the queue (status proposed)'),
    sources: z.array(SearchResult).optional().describe('question: the memory traces the answer used, best first'),
    used_uids: z.array(z.string()).optional().describe('question: uids of the traces (and calendar events) the answer used'),
    free: FreeTime.optional().describe('free: the free time of the day asked about, as GET /calendar/free answers it'),
  })
  .meta({ id: 'ChatReply' });
export type RespondResponse = z.infer<typeof RespondResponse>;
