import { z } from 'zod';
import { formatHHMM, parseHHMM, WEEKDAY_NAMES, WEEKDAYS, type Weekday } from '../time/local-date.js';
import { isTempoTag, normalizeTag, TEMPO_TAG_HINT, TempoTagSchema, tagMinutes } from '../time/tags.js';
import { ClientId, IsoDateTime } from './common.js';

/**
 * The tempo profile (SPEC §5 Tempo): its response shape and the request of POST /tempo/adjust.
 * Request schemas normalize what they accept (lowercase tags, `HH:MM`, ordered days, UTC
 * instants), so the service stores exactly the response shape.
 */

export const ACTION_KINDS = ['add_event', 'reflect', 'reschedule_event'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

const TAG_CODE = { code: 'invalid_tempo_tag' };

// ------------------------------------------------------------------ response shapes

const HHMM = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
  .describe('local wall time HH:MM');
const Day = z.enum(WEEKDAYS);

export const TimeRange = z.object({
  start: HHMM,
  end: HHMM.describe('local wall time HH:MM; at or before start = ends the next day'),
  days: z.array(Day).optional().describe('days the range starts on; absent = every day'),
});
export type TimeRange = z.infer<typeof TimeRange>;

export const BlockedWeekly = z.object({
  start: HHMM,
  end: HHMM,
  days: z.array(Day).optional(),
  label: z.string().optional(),
});
export const BlockedOnce = z.object({
  start: IsoDateTime,
  end: IsoDateTime,
  label: z.string().optional(),
});
export type BlockedWeekly = z.infer<typeof BlockedWeekly>;
export type BlockedOnce = z.infer<typeof BlockedOnce>;
export type Blocked = BlockedWeekly | BlockedOnce;

/** What makes two (validated, so normalized) blocks the same block: blocked_remove matches by it. */
export const blockKey = (b: Blocked): string => JSON.stringify([b.start, b.end, 'days' in b ? b.days : undefined, b.label]);

export const DurationBias = z.union([
  z.number().describe('multiplier of the estimate'),
  z.object({ minutes: z.number().int().describe('minutes added to the estimate (negative: removed)') }),
]);
export type DurationBias = z.infer<typeof DurationBias>;

export const CadenceRule = z.object({
  max: z.number().int(),
  per: z.enum(['day', 'week']),
  per_event: z.boolean().optional().describe('reschedule_event only: count per rescheduled event'),
});
export type CadenceRule = z.infer<typeof CadenceRule>;
export const Cadence = z.object(
  Object.fromEntries(ACTION_KINDS.map((k) => [k, CadenceRule.optional()])) as Record<ActionKind, z.ZodOptional<typeof CadenceRule>>,
);
export type Cadence = Partial<Record<ActionKind, CadenceRule>>;

const Limits = z.object({ per_day: z.number().int().optional(), per_week: z.number().int().optional() });
export const Budget = Limits.extend({ per_agent: z.record(z.string(), Limits).optional() });
export type Budget = z.infer<typeof Budget>;

export const TempoProfile = z
  .object({
    user_id: z.string(),
    timezone: z.string().describe("the user's IANA zone (change it with PATCH /user/update)"),
    time_ranges: z.record(z.string(), TimeRange),
    tag_mappings: z.record(z.string(), z.string()),
    duration_biases: z.record(z.string(), DurationBias),
    blocked: z.array(z.union([BlockedWeekly, BlockedOnce])),
    cadence: Cadence,
    budget: Budget,
  })
  .meta({ id: 'TempoProfile' });
export type TempoProfile = z.infer<typeof TempoProfile>;

export const TagList = z.array(z.string()).describe('tempo tags: built-in and every tag in use');

// ------------------------------------------------------------------ request parts

/** A strict object whose unknown keys are named with the keys it knows. */
const known = (what: string, keys: readonly string[]) => ({
  error: (iss: { code?: string; keys?: string[] }) =>
    iss.code === 'unrecognized_keys' ? `unknown ${what} ${iss.keys!.map((k) => `"${k}"`).join(', ')}: use ${keys.join(', ')}` : undefined,
});

const WallTime = z
  .string()
  .transform((s, ctx) => {
    const m = parseHHMM(s.trim());
    if (m === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${s}" is not a wall time: use HH:MM (00:00–23:59)` });
      return z.NEVER;
    }
    return formatHHMM(m);
  })
  .describe('local wall time HH:MM');

const FULL_DAYS: Record<string, Weekday> = Object.fromEntries(WEEKDAY_NAMES.map((n, i) => [n, WEEKDAYS[i]!]));

const DayInput = z.string().transform((s, ctx) => {
  const v = s.trim().toLowerCase();
  const day = (WEEKDAYS as readonly string[]).includes(v) ? (v as Weekday) : FULL_DAYS[v];
  if (!day) {
    ctx.addIssue({ code: 'custom', message: `"${s}" is not a day: use mon, tue, wed, thu, fri, sat, sun` });
    return z.NEVER;
  }
  return day;
});

const Days = z
  .array(DayInput)
  .min(1, 'give at least one day, or leave days out for every day')
  .transform((ds) => WEEKDAYS.filter((d) => ds.includes(d)))
  .describe('days the range starts on (mon … sun); absent = every day');

export const TimeRangeInput = z.strictObject({ start: WallTime, end: WallTime, days: Days.optional() }, known('range field', ['start', 'end', 'days']));

const Label = z.string().trim().min(1).max(100);

const isIso = (s: string) => IsoDateTime.safeParse(s).success;
const isWall = (s: string) => parseHHMM(s.trim()) !== undefined;

/** A weekly block (`HH:MM`) or a one-off block (two ISO date-times); which one is read from `start`/`end`. */
export const BlockedInput = z
  .strictObject(
    {
      start: z.string().describe('HH:MM (weekly) or an ISO 8601 date-time with offset (one-off)'),
      end: z.string().describe('HH:MM (weekly) or an ISO 8601 date-time with offset (one-off)'),
      days: Days.optional(),
      label: Label.optional(),
    },
    known('block field', ['start', 'end', 'days', 'label']),
  )
  .transform((b, ctx): Blocked => {
    if (isWall(b.start) && isWall(b.end)) {
      const out: BlockedWeekly = { start: formatHHMM(parseHHMM(b.start.trim())!), end: formatHHMM(parseHHMM(b.end.trim())!) };
      if (b.days) out.days = b.days;
      if (b.label) out.label = b.label;
      return out;
    }
    if (isIso(b.start) && isIso(b.end)) {
      const start = new Date(b.start);
      const end = new Date(b.end);
      if (b.days) ctx.addIssue({ code: 'custom', path: ['days'], message: 'days only apply to weekly blocks (start and end as HH:MM)' });
      if (end <= start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
      const out: BlockedOnce = { start: start.toISOString(), end: end.toISOString() };
      if (b.label) out.label = b.label;
      return out;
    }
    const message = 'use HH:MM for both ends (a weekly block) or ISO 8601 date-times with offset for both (a one-off block)';
    for (const k of ['start', 'end'] as const) if (!isWall(b[k]) && !isIso(b[k])) ctx.addIssue({ code: 'custom', path: [k], message });
    if ((isWall(b.start) && isIso(b.end)) || (isIso(b.start) && isWall(b.end))) ctx.addIssue({ code: 'custom', path: ['end'], message });
    return z.NEVER;
  });

const Count = z.number().int().min(0).max(100_000);

export const CadenceRuleInput = z
  .strictObject({ max: Count, per: z.enum(['day', 'week']), per_event: z.boolean().optional() }, known('cadence field', ['max', 'per', 'per_event']))
  .describe('at most `max` proposals of this kind per day or ISO week (in the user’s zone)');

export const CadenceInput = z
  .strictObject(
    Object.fromEntries(ACTION_KINDS.map((k) => [k, CadenceRuleInput.nullable().optional()])) as Record<
      ActionKind,
      z.ZodOptional<z.ZodNullable<typeof CadenceRuleInput>>
    >,
    known('action kind', ACTION_KINDS),
  )
  .superRefine((c, ctx) => {
    for (const k of ACTION_KINDS) {
      if (k !== 'reschedule_event' && c[k]?.per_event)
        ctx.addIssue({ code: 'custom', path: [k, 'per_event'], message: 'per_event applies only to reschedule_event' });
    }
  })
  .describe('action kind → rule; null removes the rule');

const limitsShape = { per_day: Count.nullable().optional(), per_week: Count.nullable().optional() };
const LimitsInput = z.strictObject(limitsShape, known('limit', ['per_day', 'per_week']));

export const BudgetInput = z
  .strictObject(
    {
      ...limitsShape,
      per_agent: z.record(ClientId, LimitsInput.nullable()).optional().describe('agent id → limits for that agent; null removes the agent'),
    },
    known('budget field', ['per_day', 'per_week', 'per_agent']),
  )
  .describe('actions per day / per ISO week, overall and per agent; null removes a limit');

/**
 * A record whose keys are normalized and checked by `key` (returning the normalized key or an
 * error message) and whose values are checked by `value` (null removes the key). Both are checked
 * here, one problem per path: zod reports a bad record key as a nested issue that would lose its
 * code, and would skip the key check whenever a value fails.
 */
function keyedRecord<V extends z.ZodType>(value: V, key: (k: string) => { ok: string } | { error: string; tag?: boolean }, what: string) {
  const entry = value.nullable();
  const { $schema: _s, ...valueDoc } = z.toJSONSchema(entry, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return z
    .record(z.string(), z.unknown())
    .transform((rec, ctx) => {
      const out: Record<string, z.output<V> | null> = {};
      for (const [raw, v] of Object.entries(rec)) {
        const k = key(raw);
        if ('error' in k) ctx.addIssue({ code: 'custom', path: [raw], message: k.error, ...(k.tag ? { params: TAG_CODE } : {}) });
        else if (Object.hasOwn(out, k.ok)) ctx.addIssue({ code: 'custom', path: [raw], message: `${what} "${k.ok}" is given twice` });
        const r = entry.safeParse(v);
        if (!r.success) {
          for (const i of r.error.issues) {
            const params = (i as { params?: Record<string, unknown> }).params;
            ctx.addIssue({ code: 'custom', path: [raw, ...i.path], message: i.message, ...(params ? { params } : {}) });
          }
        } else if ('ok' in k) out[k.ok] = r.data as z.output<V> | null;
      }
      return out;
    })
    .meta({ additionalProperties: valueDoc, description: `${what} → value; null removes the entry` });
}

const labelKey = (raw: string) => {
  const t = normalizeTag(raw);
  if (!isTempoTag(t)) return { error: `"${raw}" is not a tempo tag: ${TEMPO_TAG_HINT}`, tag: true };
  if (tagMinutes(t) !== undefined) return { error: `"${raw}" is a duration block; time ranges belong to @label tags` };
  return { ok: t };
};

/** A word or task kind (`gym`, `meeting`), or a tag; tags are checked against the grammar. */
const wordKey = (raw: string) => {
  const t = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!t || t.length > 100 || /[\u0000-\u001f\u007f]/.test(t)) return { error: `"${raw}" is not a word: 1–100 printable characters` };
  if (t.startsWith('@') && !isTempoTag(t)) return { error: `"${raw}" is not a tempo tag: ${TEMPO_TAG_HINT}`, tag: true };
  return { ok: t };
};

const BiasInput = z.union([
  z.number().gt(0).max(10).describe('multiplier of the estimate (0 < x ≤ 10)'),
  z
    .object({ minutes: z.number().int().min(-1440).max(1440) })
    .strict()
    .describe('minutes added to the estimate'),
]);

const PREFERENCE_KEYS = ['time_ranges', 'tag_mappings', 'duration_biases', 'blocked', 'blocked_add', 'blocked_remove', 'cadence', 'budget'];

export const PreferencesInput = z
  .strictObject(
    {
      time_ranges: keyedRecord(TimeRangeInput, labelKey, 'tag'),
      tag_mappings: keyedRecord(TempoTagSchema, wordKey, 'word'),
      duration_biases: keyedRecord(BiasInput, wordKey, 'kind or tag'),
      blocked: z.array(BlockedInput).max(500).describe('the whole list of blocked time (replaces the stored one)'),
      blocked_add: z
        .array(BlockedInput)
        .max(500)
        .describe('blocks to append to the stored list, in one step with any other change (no read-modify-write race)'),
      blocked_remove: z
        .array(BlockedInput)
        .max(500)
        .describe('blocks to take out of the stored list, matched by start, end, days and label; one not there is ignored'),
      cadence: CadenceInput,
      budget: BudgetInput,
      timezone: z
        .unknown()
        .refine(() => false, { message: "the time zone is the user's: change it with PATCH /user/update {updates: {timezone}}" })
        .optional(),
    },
    known('preference', PREFERENCE_KEYS),
  )
  .partial()
  .superRefine((p, ctx) => {
    if (p.blocked && (p.blocked_add || p.blocked_remove))
      ctx.addIssue({
        code: 'custom',
        path: ['blocked'],
        message: 'send either blocked (the whole list) or blocked_add/blocked_remove (changes to it), not both',
      });
  });
export type PreferencesInput = z.output<typeof PreferencesInput>;

export const AdjustRequest = z
  .object({
    user_id: z.string().optional().describe("default: the caller's"),
    preferences: PreferencesInput.describe(
      'partial update: objects merge key by key, null removes a key, blocked replaces the list, blocked_add/blocked_remove change it',
    ),
  })
  .strict();

export const TempoQuery = z.object({ user_id: z.string().optional().describe("default: the caller's") });
