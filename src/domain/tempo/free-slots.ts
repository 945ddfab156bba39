import type { Blocked, TimeRange } from '../../contracts/tempo.js';
import { offsetMinutes } from '../../time/zoned-time.js';
import { blockedIntervals } from './blocked-intervals.js';
import { expandWeekly, type Interval, interval, normalize, subtract, type WeeklyRange } from './intervals.js';

/** Searched when no tag range applies: nobody wants an agent to book 03:00. */
export const WAKING_HOURS: WeeklyRange = { start: '06:00', end: '22:00' };

export interface FreeSlotQuery {
  /** The profile's ranges and blocked time (a TempoProfile fits). */
  profile: { time_ranges: Readonly<Record<string, TimeRange>>; blocked: readonly Blocked[] };
  timezone: string;
  duration_minutes: number;
  /** Earliest start (usually now). */
  from: Date;
  /** Latest end; default `from` + `horizon_days`. */
  until?: Date;
  /** Default 14. */
  horizon_days?: number;
  /** Search inside this tag's time range; a tag without a range (or none) searches WAKING_HOURS. */
  tag?: string;
  /** Explicit weekly windows; they take precedence over `tag`. */
  ranges?: readonly WeeklyRange[];
  /** Calendar time to avoid: events, occurrences of recurring events (the caller expands them). */
  busy?: readonly { start: string | Date | number; end: string | Date | number }[];
  /** How many slots; later slots start at or after the end of earlier ones. Default 1. */
  count?: number;
  /** Starts fall on multiples of this many minutes of the local wall clock. Default 15. */
  step_minutes?: number;
}

export interface FreeSlot {
  start: string;
  end: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The first instant ≥ t whose local wall time is a multiple of `step` minutes. */
function alignUp(t: number, step: number, zone: string): number {
  const unit = step * MINUTE;
  const off = offsetMinutes(t, zone) * MINUTE;
  const aligned = Math.ceil((t + off) / unit) * unit - off;
  return aligned >= t ? aligned : aligned + unit;
}

/** The windows a query searches: the tag's time range, or explicit ranges, or waking hours. */
export function searchRanges(q: Pick<FreeSlotQuery, 'profile' | 'tag' | 'ranges'>): readonly WeeklyRange[] {
  if (q.ranges?.length) return q.ranges;
  const r = q.tag ? q.profile.time_ranges[q.tag.trim().toLowerCase()] : undefined;
  return r ? [r] : [WAKING_HOURS];
}

/**
 * The earliest slots of `duration_minutes` inside the searched windows that overlap neither
 * busy time nor blocked time, DST-correct in `timezone`. Fewer than `count` (possibly none) when
 * the horizon holds fewer.
 */
export function findFreeSlots(q: FreeSlotQuery): FreeSlot[] {
  const duration = q.duration_minutes * MINUTE;
  if (!(q.duration_minutes > 0)) throw new RangeError('duration_minutes must be positive');
  const step = q.step_minutes ?? 15;
  if (!(Number.isInteger(step) && step > 0 && step <= 1440)) throw new RangeError('step_minutes must be an integer in 1–1440');
  const count = q.count ?? 1;
  const from = q.from.getTime();
  const until = q.until ? q.until.getTime() : from + (q.horizon_days ?? 14) * DAY;
  if (!(until > from)) return [];

  const windows = normalize(searchRanges(q).flatMap((r) => expandWeekly(r, q.timezone, from, until)))
    .map((w) => ({ start: Math.max(w.start, from), end: Math.min(w.end, until) }))
    .filter((w) => w.end > w.start);
  const taken: Interval[] = [...(q.busy ?? []).map((b) => interval(b.start, b.end)), ...blockedIntervals(q.profile.blocked, q.timezone, from, until)];
  const out: FreeSlot[] = [];
  for (const piece of subtract(windows, taken)) {
    for (let t = alignUp(piece.start, step, q.timezone); t + duration <= piece.end && out.length < count; t = alignUp(t + duration, step, q.timezone)) {
      out.push({ start: new Date(t).toISOString(), end: new Date(t + duration).toISOString() });
    }
    if (out.length >= count) break;
  }
  return out;
}
