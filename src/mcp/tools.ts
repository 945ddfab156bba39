import { z } from 'zod';
import { type EndpointName, endpoints } from '../contracts/endpoints.js';
import { FreeSlots, FreeSlotsRequest } from '../contracts/mcp.js';
import { type ApiPort, callWhole } from './api-port.js';
import type { Caller } from './caller.js';
import { freeSlots } from './free-slots.js';
import { flagsAsBooleans, portable } from './portable-schema.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** One MCP tool: the endpoint it stands on (its route decides who may see it), its schemas and how it calls. */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** The route whose permission decides whether a credential sees this tool. */
  endpoint: EndpointName;
  input: z.ZodType;
  output: z.ZodType;
  annotations: ToolAnnotations;
  run(port: ApiPort, args: Record<string, unknown>, caller: Caller): Promise<unknown>;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const ADD: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** A query object as a URL sends it: parsed values (true, 20) back to their wire form. */
const wire = (args: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );

/**
 * An endpoint's response schema as a tool's output schema. A schema registered under an id (Plan,
 * TempoProfile) converts to a bare `$ref`, and MCP wants `type: "object"` at the root: the same
 * shape, as a fresh object.
 */
const output = <K extends EndpointName>(name: K): z.ZodType => {
  const r = endpoints[name].response as z.ZodType;
  return r instanceof z.ZodObject ? z.object(r.shape) : r;
};

/** A GET endpoint's query schema for a tool: `user_id` left to the caller's own (the daemon fills it in). */
const queryInput = <K extends EndpointName>(name: K) => {
  const q = (endpoints[name] as { query?: z.ZodObject }).query!;
  const shape = { ...q.shape };
  if ('user_id' in shape) shape.user_id = z.string().optional().describe("defaults to the credential's user");
  return z.object(shape).strict();
};

const get =
  (name: EndpointName, fill?: (args: Record<string, unknown>, caller: Caller) => Record<string, unknown>) =>
  (port: ApiPort, args: Record<string, unknown>, caller: Caller) =>
    port.call(name, { query: wire(fill ? fill(args, caller) : args) });

/** A tool that sends its arguments as the endpoint's JSON body. */
const bodyTool = (name: EndpointName) => ({
  endpoint: name,
  input: (endpoints[name] as { body?: z.ZodType }).body!,
  output: output(name),
  run: (port: ApiPort, args: Record<string, unknown>) => port.call(name, { body: args }),
});

/** A tool that sends its arguments as the endpoint's query. */
const queryTool = (name: EndpointName, fill?: (args: Record<string, unknown>, caller: Caller) => Record<string, unknown>) => ({
  endpoint: name,
  input: queryInput(name),
  output: output(name),
  run: get(name, fill),
});

/**
 * The tools. Each description says what an agent needs to act: what it returns, what it changes,
 * and that nothing here approves or executes — the person does, in `kairos review`.
 */
const DEFS: ToolDef[] = [
  {
    name: 'memory_search',
    title: 'Search memory',
    description:
      "Search the person's memory traces (observations, reflections, calendar events, plans) by meaning and words, optionally within a time range (start_time, end_time) or one space (a separate memory, such as a project or a conversation). Returns up to 200 best matches (limit) with type, task_id, score, fields, and the content (up to 1000 characters; a snippet around the match for longer traces) with highlight offsets of the matched words; use memory_pull or the kairos://trace/{uid} resource for a long trace in full.",
    annotations: READ,
    ...bodyTool('POST /memory/search'),
  },
  {
    name: 'memory_pull',
    title: 'Pull memory traces',
    description:
      'List memory traces by filters (task_id, type, tempo_tag, time range), newest first, in pages of up to 1000 (limit; next_cursor for the next page). Expired traces are left out unless include_expired is true.',
    annotations: READ,
    ...queryTool('GET /memory/pull'),
  },
  {
    name: 'memory_push',
    title: 'Record observations and reflections',
    description:
      "Write new memory traces: what you observed (type observation) or concluded (type reflection), each with a task_id, content and importance 1–5. Written at once and attributed to this agent (authored_by); it adds to memory and never changes the person's calendar or existing traces.",
    annotations: ADD,
    ...bodyTool('POST /memory/push'),
  },
  {
    name: 'memory_history',
    title: 'History of a trace',
    description:
      'Every version of one memory trace by uid, oldest first: when, by whom, and the JSON Patch from the version before. A long history comes in pages (pass next_cursor as cursor for the next).',
    annotations: READ,
    ...queryTool('GET /memory/history'),
  },
  {
    name: 'calendar_events',
    title: 'Calendar events',
    description:
      "The person's calendar between start and end (default: the next 30 days), recurring events expanded into occurrences. A date without a time is midnight in the person's time zone. Long answers come in pages (pass next_cursor as cursor for the next).",
    annotations: READ,
    ...queryTool('GET /calendar/events'),
  },
  {
    name: 'calendar_free_slots',
    title: 'Free time',
    description:
      "Free slots between start and end (at most 31 days), optionally only between day_from and day_to local time each day, at least min_minutes long (default 30). Timed events that are not cancelled count as busy; all-day events do not. Use it before proposing a time with plan_propose; respect tempo_profile's rules too.",
    endpoint: 'GET /calendar/events',
    input: FreeSlotsRequest,
    output: FreeSlots,
    annotations: READ,
    run: async (port, args, caller) => {
      const a = args as FreeSlotsRequest;
      const window = { start: Date.parse(a.start), end: Date.parse(a.end) };
      if (!(window.end > window.start) || window.end - window.start > 31 * 86_400_000)
        throw new RangeError('end must be after start, and at most 31 days later.');
      const list = await callWhole<z.infer<(typeof endpoints)['GET /calendar/events']['response']>>(port, 'GET /calendar/events', 'events', {
        start: a.start,
        end: a.end,
      });
      const busy = list.events
        .filter((e) => !e.all_day && e.status !== 'cancelled')
        .map((e) => ({ start: Date.parse(e.scheduled_for), end: Date.parse(e.scheduled_for) + e.duration_minutes * 60_000 }));
      const slots = freeSlots(window, busy, {
        zone: caller.timezone,
        minMinutes: a.min_minutes ?? 30,
        ...(a.day_from ? { dayFrom: a.day_from } : {}),
        ...(a.day_to ? { dayTo: a.day_to } : {}),
      });
      return {
        timezone: caller.timezone,
        busy_count: busy.length,
        slots: slots.map((s) => ({
          start: new Date(s.start).toISOString(),
          end: new Date(s.end).toISOString(),
          minutes: Math.round((s.end - s.start) / 60_000),
        })),
      };
    },
  },
  {
    name: 'tempo_profile',
    title: "The person's rules",
    description:
      "The person's tempo profile: working hours, focus blocks, limits and the rules an agent must respect when proposing anything (what to avoid, when, how much). Read it before plan_propose.",
    annotations: READ,
    ...queryTool('GET /tempo/profile'),
  },
  {
    name: 'plan_propose',
    title: 'Propose a plan',
    description:
      "Put a plan in the person's approval queue: either a prompt for kairos's planner, or your own actions (add_event, reschedule_event, reflect). Nothing happens to the calendar or memory until the person approves it (kairos review); returns the plan with its plan_id and status 'proposed'. Follow it with plan_status.",
    annotations: ADD,
    ...bodyTool('POST /agent/plan'),
  },
  {
    name: 'plan_status',
    title: 'Status of a plan',
    description: 'One plan by plan_id: its status (proposed, approved, rejected, executed, …), its actions and what the person decided.',
    endpoint: 'GET /agent/plans/{plan_id}',
    input: endpoints['GET /agent/plans/{plan_id}'].params,
    output: output('GET /agent/plans/{plan_id}'),
    annotations: READ,
    run: (port, args) => port.call('GET /agent/plans/{plan_id}', { params: { plan_id: String(args.plan_id) } }),
  },
  {
    name: 'context_export',
    title: 'Export context',
    description:
      "Ground yourself in the person's memory: export_format summary (compressed, with max_token_count as a budget), full, linked (a task's traces with what they link to) or diff (what changed between since and until: use it to catch up from a checkpoint). Filters: task_id, type, tempo_tag, time range.",
    annotations: READ,
    ...queryTool('GET /context/export', (args, caller) => ({ ...args, user_id: args.user_id ?? caller.user_id })),
  },
];

/**
 * The tools as clients see them: flags are JSON booleans (the endpoint's query words still pass),
 * and no schema has a type array.
 */
export const TOOLS: ToolDef[] = DEFS.map((t) => ({ ...t, input: portable(flagsAsBooleans(t.input), 'input'), output: portable(t.output, 'output') }));
