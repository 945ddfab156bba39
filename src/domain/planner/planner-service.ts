import type { Config } from '../../config/config.js';
import type { FreeTime } from '../../contracts/calendar.js';
import type { PreviewItem, PreviewRequest, PreviewResponse, RespondRequest, RespondResponse } from '../../contracts/planner.js';
import type { Plan, PlanContext, PlanRequest } from '../../contracts/plans.js';
import { validationFailed } from '../../errors.js';
import type { Store, Tx } from '../../store/store.js';
import { eventReads } from '../calendar/event-reads.js';
import type { Clock } from '../clock.js';
import type { MemoryService } from '../memory/memory-service.js';
import { countedActions } from '../plans/plan-constraints.js';
import { planReads } from '../plans/plan-reads.js';
import type { PlannerProposal } from '../plans/ports.js';
import type { Principal } from '../principal.js';
import type { CountedAction } from '../tempo/constraint-check.js';
import type { TempoService } from '../tempo/tempo-service.js';
import type { UsersService } from '../users/users-service.js';
import { respond } from './chat.js';
import { DefaultProvider } from './providers/default-provider.js';
import { OpenAiProvider } from './providers/openai-provider.js';
import { type PlannerProvider, ProviderFailure, type ProviderPlan } from './providers/provider.js';
import { avoidancesOf } from './rejections.js';
import type { CalendarItem, PlannerInput } from './types.js';

const DAY = 86_400_000;
/** The calendar the planner reads: a day back (an event in progress) to four months ahead. */
const LOOK_BACK = DAY;
const LOOK_AHEAD = 120 * DAY;

interface Logger {
  warn(obj: object | string, msg?: string): void;
}

/** The calendar as the planner needs it (the calendar service fits). */
export interface BusyPort {
  busy(userId: string, start: Date, end: Date): readonly { uid: string; recurrence_id?: string; title: string; start: number; end: number }[];
  free(userId: string, q: { date: string; duration_minutes: number }): Promise<FreeTime>;
}

/**
 * The one way back from the planner to the plans service: /chat/respond turns a prompt into a plan
 * in the queue, and the plans service asks the planner for it (`propose`). The chat service is
 * given this port per call by the composition root (services.chat); neither service holds the other.
 */
export interface PlansPort {
  propose(p: Principal, req: PlanRequest): Promise<Plan>;
}

export interface PlannerDeps {
  store: Store;
  clock: Clock;
  config: Config;
  users: UsersService;
  tempo: TempoService;
  memory: MemoryService;
  calendar?: BusyPort;
  logger?: Logger;
  /** Tests inject a provider (or a fetch for the OpenAI one) instead of the configured one. */
  provider?: PlannerProvider;
}

/** The result of one planning run, with who made it. */
export interface PlanRun extends ProviderPlan {
  input: PlannerInput;
  provider: string;
  model: string | null;
  /** Why the configured provider was not used. */
  fallback?: string;
}

/** Which provider the configuration asks for, or why it cannot be used. */
function configuredProvider(config: Config): { provider?: PlannerProvider; problem?: string } {
  const c = config.planner;
  if (c.provider !== 'openai') return {};
  if (!c.baseUrl) return { problem: 'the openai provider needs KAIROS_LLM_BASE_URL (or planner.base_url in config.json)' };
  if (!c.model) return { problem: 'the openai provider needs KAIROS_LLM_MODEL (or planner.model in config.json)' };
  return { provider: new OpenAiProvider({ baseUrl: c.baseUrl, model: c.model, apiKey: c.apiKey, timeoutMs: c.timeoutMs }) };
}

/**
 * The planner: gathers what a prompt is planned against (the user's zone and clock or the
 * context's, the tempo profile, the calendar, the actions budgets count), asks the configured
 * provider, and falls back to the offline default provider when that one times out, answers
 * something invalid or refuses. It answers the plans service (`propose`), previews and chat.
 */
export class PlannerService {
  readonly fallbackProvider = new DefaultProvider();
  private readonly primary: PlannerProvider;
  private readonly problem?: string;
  /** Plans /chat/respond already made, handed to the plans service's call back (no second run). */
  private readonly pending = new Map<string, PlanRun>();

  constructor(private readonly d: PlannerDeps) {
    const configured = d.provider ? { provider: d.provider } : configuredProvider(d.config);
    this.primary = configured.provider ?? this.fallbackProvider;
    this.problem = configured.problem;
    if (this.problem) d.logger?.warn({ planner: this.problem }, 'planner: using the default provider');
  }

  /** The provider in use, for GET /agent/status. */
  info(): { provider: string; model: string | null } {
    return { provider: this.primary.name, model: this.primary.model };
  }

  /** The instant and zone a prompt is read in: the context's, else the clock and the user's zone. */
  private when(p: Principal, ctx: PlanContext = {}): { now: Date; timezone: string } {
    return { now: ctx.now ? new Date(ctx.now) : this.d.clock.now(), timezone: ctx.timezone ?? this.d.users.get(p.userId)?.timezone ?? 'UTC' };
  }

  /** Everything a prompt is planned against. */
  inputFor(p: Principal, req: { prompt: string; task_id?: string; context?: PlanContext }): PlannerInput {
    const ctx = req.context ?? {};
    const userId = p.userId;
    const { now, timezone } = this.when(p, ctx);
    const s = this.d.tempo.settings(userId);
    return {
      prompt: req.prompt,
      now,
      timezone,
      profile: {
        time_ranges: s.time_ranges,
        tag_mappings: s.tag_mappings,
        duration_biases: s.duration_biases,
        blocked: s.blocked,
        cadence: s.cadence,
        budget: s.budget,
      },
      calendar: [...this.calendarOf(userId, now), ...contextCalendar(ctx.calendar)],
      counted: this.counted(userId),
      avoid: avoidancesOf(planReads(this.d.store).ofUser(userId), timezone, s),
      agentId: p.agentId,
      ...(req.task_id ? { taskId: req.task_id } : {}),
    };
  }

  private calendarOf(userId: string, now: Date): CalendarItem[] {
    if (!this.d.calendar) return [];
    const busy = this.d.calendar.busy(userId, new Date(now.getTime() - LOOK_BACK), new Date(now.getTime() + LOOK_AHEAD));
    return busy.map((b) => {
      const ev = eventReads(this.d.store).get(b.uid);
      return {
        uid: b.uid,
        title: b.title,
        start: b.start,
        end: b.end,
        task_id: ev?.task_id ?? null,
        ...(b.recurrence_id ? { occurrence_of: b.uid, recurrence_id: b.recurrence_id } : {}),
      };
    });
  }

  /** The user's plan actions exactly as the plans service counts them for budgets (it only reads). */
  private counted(userId: string): CountedAction[] {
    return countedActions(this.d.store as unknown as Tx, userId);
  }

  /** Plan a prompt: the configured provider, or the default one when it fails. */
  async run(p: Principal, req: { prompt: string; task_id?: string; context?: PlanContext }): Promise<PlanRun> {
    const input = this.inputFor(p, req);
    const memory = req.context?.memory;
    if (this.primary !== this.fallbackProvider) {
      try {
        const out = await this.primary.plan(input, { memory });
        return { ...out, input, provider: this.primary.name, model: this.primary.model };
      } catch (e) {
        if (!(e instanceof ProviderFailure)) throw e;
        const why = `${this.primary.name} provider${this.primary.model ? ` (${this.primary.model})` : ''} failed: ${e.reason} — ${e.message}`;
        this.d.logger?.warn({ reason: e.reason, message: e.message }, 'planner: falling back to the default provider');
        const out = await this.fallbackProvider.plan(input);
        return { ...out, input, provider: this.fallbackProvider.name, model: null, fallback: why };
      }
    }
    const out = await this.fallbackProvider.plan(input);
    return { ...out, input, provider: this.fallbackProvider.name, model: null, ...(this.problem ? { fallback: this.problem } : {}) };
  }

  /** The plans service's planner hook: a prompt-only POST /agent/plan. */
  async propose(req: { prompt: string; task_id?: string; context: PlanContext; principal: Principal }): Promise<PlannerProposal> {
    const key = pendingKey(req.principal, req);
    const run = this.pending.get(key) ?? (await this.run(req.principal, req));
    this.pending.delete(key);
    if (!run.actions.length) {
      throw validationFailed(
        run.reply,
        (run.skipped.some((s) => s.reason) ? run.skipped.filter((s) => s.reason) : [{ reason: 'nothing to schedule' }]).map((s) => ({
          path: 'prompt',
          message: s.reason,
        })),
        'plan_invalid',
      );
    }
    const tasks = new Set(run.actions.map((a) => a.task_id));
    return {
      actions: run.actions.map((a) => ({ ...a })),
      reasoning: run.fallback ? `${run.reasoning} (Planned by the default provider: ${run.fallback}.)` : run.reasoning,
      provider: run.provider,
      model: run.model,
      ...(req.task_id ? { task_id: req.task_id } : tasks.size === 1 ? { task_id: [...tasks][0]! } : {}),
    };
  }

  /** POST /chat/plan-preview: the items a prompt would propose; nothing is committed. */
  async preview(p: Principal, req: PreviewRequest): Promise<PreviewResponse> {
    const run = await this.run(p, req);
    return {
      items: previewItems(run),
      reply: run.reply,
      reasoning: run.reasoning,
      provider: run.provider,
      model: run.model,
      ...(run.fallback ? { fallback: run.fallback } : {}),
      skipped: run.skipped,
      timezone: run.input.timezone,
      now: run.input.now.toISOString(),
    };
  }

  /** POST /chat/respond; `plans` is where a scheduling prompt's plan goes (see PlansPort). */
  async respond(p: Principal, req: RespondRequest, plans: PlansPort): Promise<RespondResponse> {
    return respond(
      {
        run: (r) => this.run(p, r),
        input: (r) => this.inputFor(p, r),
        when: (r) => this.when(p, r.context),
        propose: async (r, run) => {
          // The plans service calls `propose` back for this prompt: it gets this run, not a second one.
          const key = pendingKey(p, r);
          this.pending.set(key, run);
          try {
            return await plans.propose(p, { prompt: r.prompt, ...(r.task_id ? { task_id: r.task_id } : {}), ...(r.context ? { context: r.context } : {}) });
          } finally {
            this.pending.delete(key);
          }
        },
        memory: this.d.memory,
        clock: this.d.clock,
        ...(this.d.calendar ? { free: (q: { date: string; duration_minutes: number }) => this.d.calendar!.free(p.userId, q) } : {}),
      },
      p,
      req,
    );
  }
}

function pendingKey(p: Principal, r: { prompt: string; task_id?: string; context?: PlanContext }): string {
  return JSON.stringify([p.userId, p.agentId, r.prompt, r.task_id ?? null, r.context ?? {}]);
}

/** Busy time the client sent in `context.calendar`: `{title?, scheduled_for|start, duration_minutes|end}` items; others are ignored. */
function contextCalendar(items: readonly unknown[] | undefined): CalendarItem[] {
  const out: CalendarItem[] = [];
  (items ?? []).forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const e = raw as Record<string, unknown>;
    const startText = e.scheduled_for ?? e.start;
    const start = typeof startText === 'string' ? Date.parse(startText) : NaN;
    if (!Number.isFinite(start)) return;
    const end =
      typeof e.end === 'string' ? Date.parse(e.end) : typeof e.duration_minutes === 'number' ? start + e.duration_minutes * 60_000 : start + 60 * 60_000;
    if (!(end > start)) return;
    out.push({ uid: typeof e.uid === 'string' ? e.uid : `context-${i}`, title: typeof e.title === 'string' ? e.title : 'busy', start, end, movable: false });
  });
  return out;
}

function previewItems(run: PlanRun): PreviewItem[] {
  return run.actions.map((a, i) => {
    const notes = run.notes?.[i];
    const end = new Date(Date.parse(a.scheduled_for) + a.duration_minutes * 60_000).toISOString();
    return {
      kind: a.kind === 'reflect' ? 'trace' : 'event',
      action_kind: a.kind,
      task_id: a.task_id,
      title: a.title,
      scheduled_for: a.scheduled_for,
      end,
      local: notes?.local ?? a.scheduled_for,
      duration_minutes: a.duration_minutes,
      estimate_minutes: a.estimate_minutes,
      ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
      ...(a.rrule ? { rrule: a.rrule } : {}),
      ...(a.event_uid ? { event_uid: a.event_uid } : {}),
      ...(a.kind === 'reflect' ? { type: 'reflection' as const, timestamp: a.scheduled_for, content: a.content ?? a.title } : {}),
      reasoning: a.reasoning,
      confidence: a.confidence,
      conflicts: notes?.conflicts ?? [],
      warnings: notes?.warnings ?? [],
    };
  });
}
