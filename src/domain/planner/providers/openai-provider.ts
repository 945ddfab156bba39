import { z } from 'zod';
import { ActionInput, MAX_ACTIONS } from '../../../contracts/plans.js';
import { ACTION_KINDS } from '../../../contracts/tempo.js';
import { formatInZone } from '../../../time/zoned-time.js';
import { checkPlan } from '../../tempo/constraint-check.js';
import { localStamp } from '../place.js';
import { slug } from '../text/title.js';
import type { ActionNotes, PlannerInput, ProposedAction } from '../types.js';
import { type PlannerProvider, ProviderFailure, type ProviderPlan } from './provider.js';

export interface OpenAiOptions {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama), `https://api.openai.com/v1`; `/v1` is added when missing. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The JSON schema the model must answer in (`response_format: json_schema`, strict). */
export const PLAN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['actions', 'reply'],
  properties: {
    reply: { type: 'string', description: 'one or two sentences for the user: what you planned, or why nothing' },
    actions: {
      type: 'array',
      maxItems: MAX_ACTIONS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'title', 'scheduled_for', 'duration_minutes', 'tempo_tag', 'event_uid', 'content', 'reasoning', 'confidence'],
        properties: {
          kind: { type: 'string', enum: [...ACTION_KINDS] },
          title: { type: 'string' },
          scheduled_for: { type: 'string', description: 'start, ISO 8601 with offset' },
          duration_minutes: { type: 'integer', minimum: 0 },
          tempo_tag: { type: ['string', 'null'], description: '@label or a duration block such as 25m' },
          event_uid: { type: ['string', 'null'], description: 'reschedule_event: uid of the calendar event to move' },
          content: { type: ['string', 'null'], description: 'reflect: what to reflect on' },
          reasoning: {
            type: 'string',
            description: 'the rule that placed it: explicit time, tag range, first free slot after conflicts, blocked time avoided',
          },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
        },
      },
    },
  },
} as const;

const SYSTEM = [
  'You are the planner of kairos, a personal scheduling assistant. Turn the user request into calendar actions.',
  'Answer only with JSON matching the schema. Kinds: add_event (a new event), reschedule_event (move an existing event: use its uid from `calendar`), reflect (a reflection to write).',
  'Times: interpret dates and times in the user time zone `timezone`, relative to `now_local`. Write scheduled_for as ISO 8601 with the offset of that zone on that date (mind daylight saving time).',
  '"next <weekday>" is that weekday in the next calendar week (weeks start on Monday); a bare weekday is the first such day after today.',
  'A bare hour without am/pm: 7–11 morning, 12 noon, 1–6 afternoon. "tonight" is today 17:00–23:59; morning/afternoon/evening and @tags are the `time_ranges`.',
  'With an explicit time keep it, even over an event. Without one, choose the earliest slot inside the named range that overlaps no `calendar` event and no `blocked` time.',
  'Several requests in one message: one action each. A repetition ("every Monday in March"): one action per occurrence from now on.',
  'Durations: as stated; otherwise a sensible estimate. Nothing to schedule (a greeting, a question): no actions, and say why in reply.',
].join('\n');

const LlmAction = z.object({
  kind: z.enum(ACTION_KINDS),
  title: z.string(),
  scheduled_for: z.string(),
  duration_minutes: z.number(),
  tempo_tag: z.string().nullable().optional(),
  event_uid: z.string().nullable().optional(),
  content: z.string().nullable().optional(),
  reasoning: z.string().optional().default(''),
  confidence: z.number().optional().default(0.7),
});
const LlmPlan = z.object({ actions: z.array(LlmAction).max(MAX_ACTIONS), reply: z.string().optional().default(''), reasoning: z.string().optional() });

const HORIZON_MS = 21 * 86_400_000;

function endpoint(base: string): string {
  const b = base.replace(/\/+$/, '');
  if (b.endsWith('/chat/completions')) return b;
  return /\/v\d+$/.test(b) ? `${b}/chat/completions` : `${b}/v1/chat/completions`;
}

/**
 * A planner backed by any OpenAI-compatible `/v1/chat/completions` server (Ollama, llama.cpp
 * server, vLLM, OpenAI) with JSON-schema-constrained output. Its answer is validated like an
 * agent's own plan (structure, real event uids, no past times, the user's constraints); anything
 * else is a ProviderFailure, and the service falls back to the default provider.
 */
export class OpenAiProvider implements PlannerProvider {
  readonly name = 'openai';

  constructor(private readonly o: OpenAiOptions) {}

  get model(): string {
    return this.o.model;
  }

  async plan(input: PlannerInput, extra: { memory?: readonly unknown[] } = {}): Promise<ProviderPlan> {
    const body = {
      model: this.o.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: JSON.stringify(this.userMessage(input, extra.memory)) },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'kairos_plan', strict: true, schema: PLAN_SCHEMA } },
    };
    const raw = await this.call(body);
    return this.validate(raw, input);
  }

  private userMessage(input: PlannerInput, memory?: readonly unknown[]) {
    const now = input.now.getTime();
    const zone = input.timezone;
    return {
      request: input.prompt,
      now_local: formatInZone(now, zone),
      timezone: zone,
      time_ranges: input.profile.time_ranges,
      tag_mappings: input.profile.tag_mappings,
      duration_biases: input.profile.duration_biases,
      blocked: input.profile.blocked,
      calendar: input.calendar
        .filter((c) => c.end > now - 86_400_000 && c.start < now + HORIZON_MS)
        .slice(0, 300)
        .map((c) => ({ uid: c.occurrence_of ?? c.uid, title: c.title, start: formatInZone(c.start, zone), end: formatInZone(c.end, zone) })),
      ...(memory?.length ? { memory: memory.slice(0, 50).map((m) => (typeof m === 'string' ? m : JSON.stringify(m)).slice(0, 500)) } : {}),
    };
  }

  private async call(body: unknown): Promise<unknown> {
    const doFetch = this.o.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(endpoint(this.o.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderFailure('timeout', `no answer within ${this.o.timeoutMs} ms`);
      throw new ProviderFailure(
        'unreachable',
        `cannot reach ${endpoint(this.o.baseUrl)} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if ((e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError')
        throw new ProviderFailure('timeout', `no complete answer within ${this.o.timeoutMs} ms`);
      throw new ProviderFailure('unreachable', (e as Error).message);
    }
    if (!res.ok) throw new ProviderFailure('http_error', `HTTP ${res.status} from the model server`);
    let json: { choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }[] };
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderFailure('invalid_output', 'the model server did not answer JSON');
    }
    const choice = json.choices?.[0];
    if (choice?.message?.refusal) throw new ProviderFailure('refusal', `the model refused: ${choice.message.refusal.slice(0, 200)}`);
    if (choice?.finish_reason === 'content_filter') throw new ProviderFailure('refusal', 'the model refused (content filter)');
    const content = choice?.message?.content;
    if (typeof content !== 'string' || !content.trim()) throw new ProviderFailure('invalid_output', 'the model answered no content');
    try {
      return JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
    } catch {
      throw new ProviderFailure('invalid_output', 'the model answer is not JSON');
    }
  }

  private validate(raw: unknown, input: PlannerInput): ProviderPlan {
    const parsed = LlmPlan.safeParse(raw);
    if (!parsed.success)
      throw new ProviderFailure('invalid_output', `the model answer does not match the plan schema (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const now = input.now.getTime();
    const zone = input.timezone;
    const movable = new Map(input.calendar.filter((c) => c.movable !== false).map((c) => [c.occurrence_of ?? c.uid, c]));
    const actions: ProposedAction[] = [];
    const notes: ActionNotes[] = [];
    parsed.data.actions.forEach((a, i) => {
      const bad = (why: string) => new ProviderFailure('invalid_output', `action ${i + 1}: ${why}`);
      const start = Date.parse(a.scheduled_for);
      if (!Number.isFinite(start) || !/[zZ]|[+-]\d{2}:?\d{2}$/.test(a.scheduled_for))
        throw bad(`scheduled_for ${JSON.stringify(a.scheduled_for)} is not an ISO time with offset`);
      if (start < now - 60_000) throw bad(`${a.scheduled_for} is in the past`);
      const ev = a.event_uid ? movable.get(a.event_uid) : undefined;
      if (a.kind === 'reschedule_event' && !ev) throw bad(`event_uid ${JSON.stringify(a.event_uid)} is not an event of the calendar`);
      const duration = Math.round(a.kind === 'reschedule_event' && !(a.duration_minutes > 0) && ev ? (ev.end - ev.start) / 60_000 : a.duration_minutes);
      if (a.kind !== 'reflect' && !(duration >= 1 && duration <= 1440)) throw bad(`duration_minutes ${a.duration_minutes} is not 1–1440`);
      const candidate = {
        kind: a.kind,
        task_id: input.taskId ?? ev?.task_id ?? slug(a.title || a.content || a.kind),
        title: a.title.trim() || ev?.title || (a.content ?? '').slice(0, 80) || 'Reflection',
        scheduled_for: new Date(start).toISOString(),
        duration_minutes: Math.max(0, duration),
        estimate_minutes: Math.max(0, duration),
        ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
        ...(a.kind === 'reschedule_event' ? { event_uid: a.event_uid! } : {}),
        ...(a.kind === 'reflect' ? { content: (a.content ?? '').trim() || a.title.trim() || 'Reflection' } : {}),
        reasoning: `${a.reasoning.trim() || 'Proposed by the language model.'}`.slice(0, 10_000),
        confidence: Math.min(1, Math.max(0, a.confidence)),
      };
      // The same structural check as an agent's own plan.
      const check = ActionInput.safeParse(candidate);
      if (!check.success) throw bad(check.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; '));
      actions.push(candidate as ProposedAction);
      const end = start + candidate.duration_minutes * 60_000;
      const conflicts = input.calendar
        .filter((c) => c.start < end && start < c.end && (c.occurrence_of ?? c.uid) !== candidate.event_uid)
        .map((c) => c.occurrence_of ?? c.uid);
      notes.push({ conflicts, warnings: [], local: localStamp(start, zone), rule: 'explicit_time' });
    });
    const check = checkPlan(
      actions.map((a) => ({
        kind: a.kind,
        scheduled_for: a.scheduled_for,
        duration_minutes: a.duration_minutes,
        agent_id: input.agentId ?? null,
        event_uid: a.event_uid ?? null,
      })),
      {
        rules: { blocked: input.profile.blocked, cadence: input.profile.cadence, budget: input.profile.budget },
        timezone: zone,
        now: input.now,
        actions: input.counted ?? [],
      },
    );
    if (!check.ok)
      throw new ProviderFailure('invalid_output', `the model's plan breaks the user's constraints: ${check.violations.map((v) => v.message).join('; ')}`);
    const reply =
      parsed.data.reply.trim() || (actions.length ? `Proposed ${actions.length} action${actions.length === 1 ? '' : 's'}.` : 'Nothing to schedule.');
    return {
      actions,
      notes,
      reply,
      reasoning: parsed.data.reasoning?.trim() || actions.map((a, i) => `${i + 1}. ${a.title}: ${a.reasoning}`).join(' ') || reply,
      skipped: [],
    };
  }
}
