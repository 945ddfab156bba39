import { addDays, compareDates, formatHHMM, type LocalDate, parseHHMM, WEEKDAYS } from '../../time/local-date.js';
import { atLocalTime, localDateOf, startOfLocalDay, toZoned } from '../../time/zoned-time.js';
import { blockedIntervals } from '../tempo/blocked-intervals.js';
import { type CountedAction, checkAction } from '../tempo/constraint-check.js';
import { findFreeSlots } from '../tempo/free-slots.js';
import type { WeeklyRange } from '../tempo/intervals.js';
import type { CalendarItem, PlannerProfile } from './types.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far past a named window a search goes on when the window is full. */
const FALLBACK_DAYS = 14;

export interface PlacementContext {
  now: number;
  zone: string;
  profile: PlannerProfile;
  calendar: readonly CalendarItem[];
  counted: readonly CountedAction[];
  agentId: string | null;
}

/** Something already placed in this plan: later items avoid it and budgets count it. */
export interface Placed {
  start: number;
  end: number;
  title: string;
  kind: CountedAction['kind'];
}

export interface SlotResult {
  start: number;
  end: number;
  /** Events that took the earlier part of the window on the slot's day (the "named conflicts"). */
  passed: CalendarItem[];
  /** Blocked stretches the search stepped over. */
  blocked: { start: number; end: number; label?: string }[];
  /** Days skipped because their budget was used up. */
  budgetDays: string[];
  /** The named window had no room; this slot is after it. */
  fallback: boolean;
}

export function hhmm(ms: number, zone: string): string {
  const z = toZoned(ms, zone);
  return formatHHMM(z.hour * 60 + z.minute);
}

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Tue 2026-03-10 15:00". */
export function localStamp(ms: number, zone: string): string {
  const z = toZoned(ms, zone);
  const d = `${z.year}-${String(z.month).padStart(2, '0')}-${String(z.day).padStart(2, '0')}`;
  return `${DAY_NAMES[WEEKDAYS.indexOf(z.weekday)]} ${d} ${formatHHMM(z.hour * 60 + z.minute)}`;
}

/** "Tue 2026-03-10". */
export const localDay = (ms: number, zone: string) => localStamp(ms, zone).slice(0, 14);

/**
 * Slot search over the user's calendar: the pure free-slot finder of the tempo area, plus the
 * day budgets (a day whose budget is used up is skipped) and a fallback past a full window.
 */
export class Placer {
  readonly placed: Placed[] = [];

  constructor(readonly ctx: PlacementContext) {}

  busy(excludeUid?: string): { start: number; end: number }[] {
    return [...this.ctx.calendar.filter((c) => c.uid !== excludeUid && (c.occurrence_of ?? c.uid) !== excludeUid), ...this.placed];
  }

  /** Events of the calendar overlapping `[start, end)`. */
  overlapping(start: number, end: number, excludeUid?: string): CalendarItem[] {
    return this.ctx.calendar.filter((c) => c.start < end && start < c.end && c.uid !== excludeUid && (c.occurrence_of ?? c.uid) !== excludeUid);
  }

  blockedAt(start: number, end: number) {
    return blockedIntervals(this.ctx.profile.blocked, this.ctx.zone, start, Math.max(end, start + 1));
  }

  /** Whether an action at `start` would break a daily or weekly budget (counting this plan's earlier actions). */
  budgetProblem(kind: CountedAction['kind'], start: number, minutes: number): string | undefined {
    const { budget } = this.ctx.profile;
    if (budget.per_day === undefined && budget.per_week === undefined && !budget.per_agent) return undefined;
    const counted: CountedAction[] = [
      ...this.ctx.counted,
      ...this.placed.map((p) => ({
        kind: p.kind,
        scheduled_for: new Date(p.start),
        duration_minutes: (p.end - p.start) / MINUTE,
        agent_id: this.ctx.agentId,
        status: 'proposed' as const,
        proposed_at: new Date(this.ctx.now),
      })),
    ];
    const r = checkAction(
      { kind, scheduled_for: new Date(start), duration_minutes: minutes, agent_id: this.ctx.agentId },
      { rules: { blocked: [], cadence: {}, budget }, timezone: this.ctx.zone, now: new Date(this.ctx.now), actions: counted },
    );
    return r.ok ? undefined : r.violations.map((v) => v.message).join('; ');
  }

  place(p: Placed): void {
    this.placed.push(p);
  }

  /**
   * The earliest free slot of `minutes` in `range` on the days `from`–`to` (local, inclusive;
   * `weekdays` filters them), never before now. When the window is full the search goes on for
   * FALLBACK_DAYS after it, and says so.
   */
  findSlot(q: {
    from?: LocalDate;
    to?: LocalDate;
    weekdays?: number[];
    range: WeeklyRange;
    minutes: number;
    kind: CountedAction['kind'];
    excludeUid?: string;
    fallback?: boolean;
    /** Where to search on from when this rules a slot out (a rejection's constraints), else undefined. */
    avoid?: (start: number, end: number) => number | undefined;
  }): SlotResult | undefined {
    const { zone, now } = this.ctx;
    const startMs = Math.max(now, q.from ? startOfLocalDay(q.from, zone).getTime() : now);
    const endMs = q.to ? startOfLocalDay(addDays(q.to, 1), zone).getTime() : now + FALLBACK_DAYS * DAY;
    const ranges: WeeklyRange[] = [q.weekdays ? { ...q.range, days: q.weekdays.map((i) => WEEKDAYS[i]!) } : q.range];
    const first = this.search(startMs, endMs, ranges, q);
    if (first || q.fallback === false || !q.to) return first;
    const later = this.search(endMs, endMs + FALLBACK_DAYS * DAY, [q.range], q);
    return later ? { ...later, fallback: true } : undefined;
  }

  private search(
    from: number,
    until: number,
    ranges: WeeklyRange[],
    q: { minutes: number; kind: CountedAction['kind']; excludeUid?: string; avoid?: (start: number, end: number) => number | undefined },
  ): SlotResult | undefined {
    const { zone, profile } = this.ctx;
    const busy = this.busy(q.excludeUid);
    const budgetDays: string[] = [];
    let cursor = from;
    for (let guard = 0; guard < 400 && cursor < until; guard++) {
      const [slot] = findFreeSlots({
        profile: { time_ranges: {}, blocked: profile.blocked },
        timezone: zone,
        duration_minutes: q.minutes,
        from: new Date(cursor),
        until: new Date(until),
        ranges,
        busy,
        step_minutes: 15,
      });
      if (!slot) return undefined;
      const start = Date.parse(slot.start);
      const end = Date.parse(slot.end);
      const past = q.avoid?.(start, end);
      if (past !== undefined) {
        cursor = Math.max(past, start + 15 * MINUTE);
        continue;
      }
      const problem = this.budgetProblem(q.kind, start, q.minutes);
      if (problem) {
        budgetDays.push(localDay(start, zone));
        cursor = startOfLocalDay(addDays(localDateOf(start, zone), 1), zone).getTime();
        continue;
      }
      const windowStart = Math.max(from, this.windowStartOn(start, ranges[0]!));
      return {
        start,
        end,
        passed: this.overlapping(windowStart, start, q.excludeUid).filter((c) => c.end <= start + 1),
        blocked: this.blockedAt(windowStart, start)
          .filter((b) => b.end <= start)
          .map((b) => ({ start: b.start, end: b.end, ...(b.block.label ? { label: b.block.label } : {}) })),
        budgetDays,
        fallback: false,
      };
    }
    return undefined;
  }

  /** Where the searched range begins on the local day of `t` (the day before for a range crossing midnight). */
  private windowStartOn(t: number, range: WeeklyRange): number {
    const { zone } = this.ctx;
    const day = localDateOf(t, zone);
    const s = parseHHMM(range.start)!;
    const z = toZoned(t, zone);
    return (z.hour * 60 + z.minute >= s ? atLocalTime(day, s, zone) : atLocalTime(addDays(day, -1), s, zone)).getTime();
  }
}

/** Local dates from `from` to `to` inclusive. */
export function* eachDay(from: LocalDate, to: LocalDate): Generator<LocalDate> {
  for (let d = from; compareDates(d, to) <= 0; d = addDays(d, 1)) yield d;
}
