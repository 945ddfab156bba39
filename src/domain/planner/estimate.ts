import { tagMinutes } from '../../time/tags.js';
import { applyDurationBias } from '../tempo/profile.js';
import type { Item } from './interpret.js';
import { DEFAULT_MINUTES, FALLBACK_MINUTES } from './text/words.js';
import type { PlannerProfile } from './types.js';

export interface Estimate {
  /** What gets booked (the bias applied to an estimate; a stated length as stated). */
  booked: number;
  /** The planner's own estimate before any bias (what feedback learns from). */
  raw: number;
  stated: boolean;
  /** e.g. "45 min as stated", "60 min (usual length), ×1.25 bias for "meeting" → 75 min". */
  why: string;
}

const REFLECT_MINUTES = 15;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The bias key that applies to a task: its @label tag, its whole title (the key feedback learns
 * under), or a word or phrase of the title the profile names (`{"meeting": 1.25}`).
 */
export function biasKeyFor(profile: PlannerProfile, title: string, tag?: string): string | undefined {
  const biases = profile.duration_biases;
  if (tag?.startsWith('@') && biases[tag] !== undefined) return tag;
  const t = title.trim().toLowerCase().replace(/\s+/g, ' ');
  if (biases[t] !== undefined) return t;
  const keys = Object.keys(biases)
    .filter((k) => !k.startsWith('@') && k.trim())
    .sort((a, b) => b.length - a.length);
  return keys.find((k) => new RegExp(`(?:^|\\b)${escapeRegExp(k.toLowerCase())}(?:\\b|$)`).test(t));
}

/** How long an item takes: as stated, else the usual length of its kind, adjusted by the profile's duration biases. */
export function estimateMinutes(profile: PlannerProfile, item: Item, opts: { tag?: string; startMinutes?: number; fallback?: number } = {}): Estimate {
  if (item.duration) return { booked: item.duration.minutes, raw: item.duration.minutes, stated: true, why: `${item.duration.minutes} min as stated` };
  if (item.time?.endMinutes !== undefined && opts.startMinutes !== undefined) {
    let len = item.time.endMinutes - opts.startMinutes;
    if (len <= 0) len += 12 * 60;
    if (len > 0 && len <= 16 * 60)
      return {
        booked: len,
        raw: len,
        stated: true,
        why: `${len} min (until ${String(Math.floor(item.time.endMinutes / 60) % 24).padStart(2, '0')}:${String(item.time.endMinutes % 60).padStart(2, '0')} as stated)`,
      };
  }
  const block = opts.tag ? tagMinutes(opts.tag) : undefined;
  let raw =
    block ?? opts.fallback ?? (item.kind === 'reflect' ? REFLECT_MINUTES : (DEFAULT_MINUTES.find(([re]) => re.test(item.title))?.[1] ?? FALLBACK_MINUTES));
  raw = Math.max(1, Math.round(raw));
  const base = block ? `${raw} min (the ${opts.tag} block)` : `${raw} min (usual length${opts.fallback ? ' of the event' : ' for this kind of task'})`;
  const key = biasKeyFor(profile, item.title, opts.tag);
  if (key === undefined) return { booked: raw, raw, stated: false, why: base };
  // A learned bias is a ratio: booked as is it makes odd ends (07:00–08:08); a person books in fives.
  const booked = Math.max(5, Math.round(applyDurationBias(profile, [key], raw) / 5) * 5);
  const bias = profile.duration_biases[key]!;
  const how = typeof bias === 'number' ? `×${bias}` : `${bias.minutes >= 0 ? '+' : ''}${bias.minutes} min`;
  return { booked, raw, stated: false, why: `${base}, ${how} duration bias for "${key}" → ${booked} min` };
}
