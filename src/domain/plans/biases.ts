import type { DurationBias } from '../../contracts/tempo.js';
import { isTempoTag, tagMinutes } from '../../time/tags.js';
import type { StoredAction } from './plan.js';

/**
 * Learning duration biases from the person's corrections. An observation is "this kind of thing
 * takes `actual` minutes where the agent estimated `estimate`"; the bias (a multiplier of the
 * estimate, SPEC `duration_biases`) moves halfway towards actual / estimate.
 */

export const LEARNING_RATE = 0.5;
const MIN_BIAS = 0.1;
const MAX_BIAS = 10;

/**
 * The key a learned bias is stored under: the action's @label tag when it has one (`@deep-work`),
 * else its title, lowercased with single spaces (`team meeting`). Planners look biases up the same way.
 */
export function biasKey(a: Pick<StoredAction, 'title' | 'tempo_tag'>): string | undefined {
  if (a.tempo_tag && isTempoTag(a.tempo_tag) && tagMinutes(a.tempo_tag) === undefined) return a.tempo_tag;
  const t = a.title.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 100);
  return t && !/[\u0000-\u001f\u007f]/.test(t) ? t : undefined;
}

const clamp = (x: number) => Math.min(MAX_BIAS, Math.max(MIN_BIAS, x));

export interface Observation {
  key: string;
  actual: number;
  estimate: number;
}

/** An observation from an action whose duration the person set to `actual`. */
export function observe(a: StoredAction, actual: number): Observation | undefined {
  const key = biasKey(a);
  if (!key || a.kind === 'reflect' || !(a.estimate_minutes > 0) || !(actual > 0)) return undefined;
  return { key, actual, estimate: a.estimate_minutes };
}

/**
 * The biases to store after these observations (only those that change). A bias given in
 * minutes was set by the person and is left alone.
 */
export function learn(current: Readonly<Record<string, DurationBias>>, observations: readonly Observation[]): Record<string, number> {
  const next: Record<string, number> = {};
  for (const o of observations) {
    const cur = next[o.key] ?? current[o.key];
    if (cur !== undefined && typeof cur !== 'number') continue;
    const old = cur ?? 1;
    // One wild correction moves the bias at most halfway to the bounds.
    const target = clamp(o.actual / o.estimate);
    const value = clamp(Math.round((old + LEARNING_RATE * (target - old)) * 100) / 100);
    if (Math.abs(value - old) >= 0.01) next[o.key] = value;
  }
  return next;
}
