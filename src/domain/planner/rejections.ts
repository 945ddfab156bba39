import type { StoredPlan } from '../../contracts/stored.js';
import { parseHHMM, WEEKDAYS } from '../../time/local-date.js';
import { toZoned } from '../../time/zoned-time.js';
import type { Avoidance, PlannerProfile } from './types.js';

const DAY_WORDS: [RegExp, number[]][] = [
  [/\bmon(?:day)?s?\b/, [0]],
  [/\btue(?:s|sday)?s?\b/, [1]],
  [/\bwed(?:nesday)?s?\b/, [2]],
  [/\bthu(?:rs?|rsday)?s?\b/, [3]],
  [/\bfri(?:day)?s?\b/, [4]],
  [/\bsat(?:urday)?s?\b/, [5]],
  [/\bsun(?:day)?s?\b/, [6]],
  [/\bweekends?\b/, [5, 6]],
  [/\bweekdays?\b/, [0, 1, 2, 3, 4]],
];
const PARTS: Record<string, [string, string]> = {
  morning: ['06:00', '12:00'],
  afternoon: ['12:00', '17:00'],
  evening: ['17:00', '22:00'],
  night: ['21:00', '24:00'],
};
/** "6am", "6 am", "18:00", "7:30pm". */
const CLOCK = /\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\b(\d{1,2}):(\d{2})\b/g;

/** The minutes of day named in a reason, each taken as the hour it starts. */
function clockHours(reason: string): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (const m of reason.matchAll(CLOCK)) {
    let h = Number(m[1] ?? m[4]);
    const min = Number(m[2] ?? m[5] ?? 0);
    if (m[3] === 'pm' && h < 12) h += 12;
    if (m[3] === 'am' && h === 12) h = 0;
    if (h > 23 || min > 59) continue;
    out.push({ from: h * 60 + min, to: Math.min(1440, h * 60 + min + 60) });
  }
  return out;
}

/**
 * What a rejection's reason says about time, read as constraints on the same task's next
 * proposals: weekdays named ("not on a Sunday", "no weekends"), clock times ("at 6am"), parts
 * of the day ("mornings"), and "too early" / "too late" relative to the rejected times. The
 * rejected slots themselves are always avoided, whatever the reason says.
 */
export function avoidancesOf(plans: readonly StoredPlan[], zone: string, profile: Pick<PlannerProfile, 'time_ranges'>): Avoidance[] {
  const out: Avoidance[] = [];
  for (const plan of plans) {
    if (plan.status !== 'rejected') continue;
    const reason = (plan.reason ?? '').toLowerCase();
    const weekdays = [...new Set(DAY_WORDS.filter(([re]) => re.test(reason)).flatMap(([, d]) => d))].sort();
    const hours = clockHours(reason);
    for (const [part, fallback] of Object.entries(PARTS)) {
      if (!new RegExp(`\\b${part}s?\\b`).test(reason)) continue;
      const r = profile.time_ranges[`@${part}`];
      const [s, e] = [parseHHMM(r?.start ?? fallback[0]) ?? 0, parseHHMM(r?.end ?? fallback[1]) ?? 1440];
      hours.push({ from: s, to: e > s ? e : 1440 });
    }
    for (const a of plan.actions) {
      if (a.kind === 'reflect') continue;
      const start = Date.parse(a.scheduled_for);
      const z = toZoned(start, zone);
      const at = z.hour * 60 + z.minute;
      const ofAction = [...hours];
      if (/\btoo\s+early\b|\blater\b/.test(reason)) ofAction.push({ from: 0, to: Math.min(1440, at + 60) });
      if (/\btoo\s+late\b|\bearlier\b/.test(reason)) ofAction.push({ from: at, to: 1440 });
      out.push({
        task_id: a.task_id,
        plan_id: plan.plan_id,
        reason: plan.reason ?? 'rejected',
        weekdays,
        hours: ofAction,
        slots: [{ start, end: start + Math.max(1, a.duration_minutes) * 60_000 }],
      });
    }
  }
  return out;
}

/**
 * Whether `[start, end)` is ruled out by one of `avoid` (local to `zone`): the rejection that
 * rules it out and the first instant worth searching from after it, or undefined.
 */
export function avoidedBy(avoid: readonly Avoidance[], start: number, end: number, zone: string): { by: Avoidance; next: number } | undefined {
  if (!avoid.length) return undefined;
  const z = toZoned(start, zone);
  const day = WEEKDAYS.indexOf(z.weekday);
  const from = z.hour * 60 + z.minute;
  const to = from + Math.round((end - start) / 60_000);
  const dayStart = start - from * 60_000 - z.second * 1000;
  for (const a of avoid) {
    // A DST day is an hour off at worst; the search steps on from wherever this lands.
    if (a.weekdays.includes(day)) return { by: a, next: dayStart + 1440 * 60_000 };
    const h = a.hours.find((x) => x.from < to && from < x.to);
    if (h) return { by: a, next: dayStart + h.to * 60_000 };
    const s = a.slots.find((x) => x.start < end && start < x.end);
    if (s) return { by: a, next: s.end };
  }
  return undefined;
}
