import {
  type Blocked,
  type Budget,
  blockKey,
  type Cadence,
  type DurationBias,
  type PreferencesInput,
  type TempoProfile,
  type TimeRange,
} from '../../contracts/tempo.js';
import { isTempoTag } from '../../time/tags.js';

/** The stored part of a tempo profile (the time zone is the user's, kept on the user). */
export type TempoSettings = Omit<TempoProfile, 'user_id' | 'timezone'>;

/** Time ranges every profile starts with (SPEC §5). */
export const DEFAULT_TIME_RANGES: Readonly<Record<string, TimeRange>> = {
  '@morning': { start: '06:00', end: '12:00' },
  '@afternoon': { start: '12:00', end: '17:00' },
  '@evening': { start: '17:00', end: '22:00' },
  '@night': { start: '22:00', end: '06:00' },
  '@work': { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
};

/** Duration blocks offered by GET /tempo/tags besides the range labels: a pomodoro, a focus hour, a deep-work block. */
export const BUILTIN_DURATION_TAGS = ['25m', '50m', '90m'] as const;

export const BUILTIN_TAGS: readonly string[] = [...Object.keys(DEFAULT_TIME_RANGES), ...BUILTIN_DURATION_TAGS];

/** A profile nobody has adjusted: the default ranges and no constraints on agents. */
export function defaultSettings(): TempoSettings {
  return {
    time_ranges: structuredClone(DEFAULT_TIME_RANGES) as Record<string, TimeRange>,
    tag_mappings: {},
    duration_biases: {},
    blocked: [],
    cadence: {},
    budget: {},
  };
}

/** Key-by-key merge where null removes a key. */
function mergeRecord<V>(base: Readonly<Record<string, V>>, patch: Readonly<Record<string, V | null>> | undefined): Record<string, V> {
  const out: Record<string, V> = { ...base };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

type Limits = { per_day?: number; per_week?: number };
type LimitsPatch = { per_day?: number | null; per_week?: number | null };

function mergeLimits(base: Limits, patch: LimitsPatch): Limits {
  const out: Limits = { ...base };
  for (const k of ['per_day', 'per_week'] as const) {
    const v = patch[k];
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return out;
}

function mergeBudget(base: Budget, patch: NonNullable<PreferencesInput['budget']> | undefined): Budget {
  if (!patch) return base;
  const { per_agent: basePerAgent, ...baseLimits } = base;
  const out: Budget = mergeLimits(baseLimits, patch);
  const agents: Record<string, Limits> = { ...basePerAgent };
  for (const [agent, limits] of Object.entries(patch.per_agent ?? {})) {
    if (limits === null) delete agents[agent];
    else {
      const merged = mergeLimits(agents[agent] ?? {}, limits);
      if (Object.keys(merged).length) agents[agent] = merged;
      else delete agents[agent];
    }
  }
  if (Object.keys(agents).length) out.per_agent = agents;
  return out;
}

/** Identical blocks given twice are kept once, in the order first given. */
function dedupeBlocked(list: readonly Blocked[]): Blocked[] {
  const seen = new Set<string>();
  return list.filter((b) => {
    const k = blockKey(b);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The stored list, or the one sent; then blocked_remove taken out and blocked_add appended. */
function mergeBlocked(current: readonly Blocked[], prefs: PreferencesInput): Blocked[] {
  if (prefs.blocked) return dedupeBlocked(prefs.blocked);
  const gone = new Set((prefs.blocked_remove ?? []).map(blockKey));
  return dedupeBlocked([...current.filter((b) => !gone.has(blockKey(b))), ...(prefs.blocked_add ?? [])]);
}

/**
 * Apply a validated partial update. Objects merge key by key (null removes a key), `blocked`
 * replaces the whole list: a list has no keys to merge by, and the client that sends one has
 * read the current list. `blocked_add`/`blocked_remove` change the list inside the same
 * transaction instead, so two clients adding blocks at once both keep theirs.
 */
export function mergeSettings(current: TempoSettings, prefs: PreferencesInput): TempoSettings {
  return {
    time_ranges: mergeRecord(current.time_ranges, prefs.time_ranges),
    tag_mappings: mergeRecord(current.tag_mappings, prefs.tag_mappings),
    duration_biases: mergeRecord<DurationBias>(current.duration_biases, prefs.duration_biases),
    blocked: mergeBlocked(current.blocked, prefs),
    cadence: mergeRecord(current.cadence as Record<string, NonNullable<Cadence[keyof Cadence]>>, prefs.cadence) as Cadence,
    budget: mergeBudget(current.budget, prefs.budget),
  };
}

/** Every tag a profile mentions: range labels, mapped tags, biased tags. */
export function tagsOfSettings(s: TempoSettings): string[] {
  return [...Object.keys(s.time_ranges), ...Object.values(s.tag_mappings), ...Object.keys(s.duration_biases).filter(isTempoTag)];
}

/**
 * The tag a word or task kind maps to (`gym` → `@morning`), matched whole and case-insensitively;
 * undefined when the profile maps none.
 */
export function mappedTag(settings: Pick<TempoSettings, 'tag_mappings'>, word: string): string | undefined {
  return settings.tag_mappings[word.trim().toLowerCase().replace(/\s+/g, ' ')];
}

/**
 * An estimate adjusted by the profile's duration biases: the first of `keys` (task kind, tag…)
 * that has a bias applies — a multiplier or added minutes — and the result is whole minutes, at
 * least 1.
 */
export function applyDurationBias(settings: Pick<TempoSettings, 'duration_biases'>, keys: readonly (string | undefined | null)[], minutes: number): number {
  for (const raw of keys) {
    if (!raw) continue;
    const bias = settings.duration_biases[raw.trim().toLowerCase()];
    if (bias === undefined) continue;
    const adjusted = typeof bias === 'number' ? minutes * bias : minutes + bias.minutes;
    return Math.max(1, Math.round(adjusted));
  }
  return minutes;
}
