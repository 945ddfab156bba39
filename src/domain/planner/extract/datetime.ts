import { addDays, type LocalDate, startOfIsoWeek, WEEKDAYS, weekdayOf } from '../../../time/local-date.js';
import { findTimeWords, type TimeWordsParts } from '../../../time/time-words.js';
import type { DateFeature, DaysFeature, Span, TimeFeature } from './features.js';

/** What "now" is for the parser: the local wall clock in the user's zone. */
export interface WallNow {
  today: LocalDate;
  hour: number;
  minute: number;
  /** The instant and the zone's offset at it, for chrono's reference. */
  instant: Date;
  offsetMinutes: number;
  /** "9/3" is 9 March (day first) outside the Americas, September 3 in them. */
  dayFirst?: boolean;
}

const weekdayIndex = (d: LocalDate) => WEEKDAYS.indexOf(weekdayOf(d));

/**
 * The date a weekday name means (docs/planner.md conventions): "next Tuesday" is Tuesday of the next
 * calendar week (weeks start on Monday); a bare weekday, "on Friday" or "this Saturday" is the
 * first such day after today; "Tuesday after next" is a week after "next Tuesday".
 */
export function weekdayDate(today: LocalDate, target: number, mode: 'next' | 'coming' | 'after-next' | 'last'): LocalDate {
  const monday = startOfIsoWeek(today);
  if (mode === 'next') return addDays(monday, 7 + target);
  if (mode === 'after-next') return addDays(monday, 14 + target);
  const dow = weekdayIndex(today);
  if (mode === 'last') return addDays(today, -((dow - target + 7) % 7 || 7));
  return addDays(today, (target - dow + 7) % 7 || 7);
}

const AMBIGUOUS_WORDS = /^(?:sun|sat|wed|mon|may|mar|jan|jun|jul|aug|sept?|oct|nov|dec|second|fri|thu|tue)$/;
const ANCHORING = /\b(?:on|next|this|every|by|until|till|from|starting|before|after|in|coming|of|during)\s*$/;

const CLOCK = '(?:\\d{1,2}(?::\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.)?|noon|midday|midnight)';

/** A clock time as written: "2", "5pm", "14:30", "noon". */
function clock(text: string): { minutes: number; certain: boolean } | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'noon' || t === 'midday') return { minutes: 720, certain: true };
  if (t === 'midnight') return { minutes: 0, certain: true };
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(t);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  if (h > 23 || min > 59) return undefined;
  const mer = m[3]?.[0];
  if (mer === 'p' && h < 12) h += 12;
  if (mer === 'a' && h === 12) h = 0;
  return { minutes: h * 60 + min, certain: Boolean(mer) || h === 0 || h > 12 };
}

type DateRead = { kind: 'date'; date: LocalDate; weekday?: number } | { kind: 'month'; from: LocalDate; to: LocalDate } | 'skip' | undefined;

/** The day (or month) chrono's components name, by this planner's conventions. */
function dateOf(c: TimeWordsParts, bare: string, post: string, today: LocalDate): DateRead {
  if (c.isCertain('weekday') && !c.isCertain('day')) {
    const weekday = (c.get('weekday')! + 6) % 7;
    const afterNext = /^\s*after\s+next\b/.test(post);
    const mode = /\b(?:next|following)\b/.test(bare)
      ? afterNext
        ? 'after-next'
        : 'next'
      : /\blast\b/.test(bare)
        ? 'last'
        : afterNext
          ? 'after-next'
          : 'coming';
    if (mode === 'last') return 'skip';
    return { kind: 'date', date: weekdayDate(today, weekday, mode), weekday };
  }
  if (c.isCertain('day')) {
    const date = { year: c.get('year')!, month: c.get('month')!, day: c.get('day')! };
    if (c.isCertain('year') || !c.isCertain('month')) return { kind: 'date', date };
    // A day and month without a year: this year's, or next year's once it has passed.
    const candidate = { ...date, year: today.year };
    const passed = candidate.month < today.month || (candidate.month === today.month && candidate.day < today.day);
    return { kind: 'date', date: passed ? { ...candidate, year: today.year + 1 } : candidate };
  }
  if (c.isCertain('month')) {
    const month = c.get('month')!;
    const year = c.isCertain('year') ? c.get('year')! : month < today.month ? today.year + 1 : today.year;
    const last = addDays({ year: month === 12 ? year + 1 : year, month: month === 12 ? 1 : month + 1, day: 1 }, -1);
    return { kind: 'month', from: year === today.year && month === today.month ? today : { year, month, day: 1 }, to: last };
  }
  return undefined;
}

export interface DateTimeFeatures {
  dates: DateFeature[];
  times: TimeFeature[];
  days: DaysFeature[];
}

/**
 * Dates and times found by chrono-node in `masked` (the prompt with durations, ranges and the
 * like blanked out), re-read with this planner's conventions: weekdays by the rules above, bare
 * hours resolved later (they depend on the part of the day and the task), months without a day
 * as a window of days.
 */
export function extractDateTimes(masked: string, original: string, now: WallNow): DateTimeFeatures {
  const out: DateTimeFeatures = { dates: [], times: [], days: [] };
  // "between 2 and 5pm": a window; chrono reads only "5pm" of it.
  for (const m of masked.matchAll(new RegExp(`\\bbetween\\s+(${CLOCK})\\s+(?:and|to|-)\\s+(${CLOCK})(?![\\w:])`, 'g'))) {
    const a = clock(m[1]!);
    const b = clock(m[2]!);
    if (!a || !b) continue;
    if (!a.certain && b.certain && b.minutes >= 720 && a.minutes < 720 && a.minutes + 720 <= b.minutes)
      Object.assign(a, { minutes: a.minutes + 720, certain: true });
    out.times.push({
      type: 'time',
      start: m.index,
      end: m.index + m[0].length,
      minutes: a.minutes,
      certain: a.certain,
      endMinutes: b.minutes,
      endCertain: b.certain,
      bound: 'between',
    });
    masked = masked.slice(0, m.index) + ' '.repeat(m[0].length) + masked.slice(m.index + m[0].length);
  }
  const ref = { instant: now.instant, timezone: now.offsetMinutes };
  const results = findTimeWords(masked, ref);
  // "the quarter friday": chrono swallows a real date into a phrase it reads nothing certain from.
  // Read the rest of such a phrase again without its first word, so the date binds to its clause.
  const certain = (r: (typeof results)[number]) => ['weekday', 'day', 'month', 'year', 'hour'].some((k) => r.start.isCertain(k as 'day'));
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    const skip = /^\S+\s+/.exec(r.text)?.[0].length;
    if (certain(r) || !skip) continue;
    const from = r.index + skip;
    const again = findTimeWords(masked.slice(from, r.index + r.text.length), ref);
    for (const a of again) (a as { index: number }).index += from;
    results.splice(i, 1, ...again);
    i += again.length - 1;
  }
  for (const r of results) {
    const text = r.text;
    let start = r.index;
    const end = r.index + text.length;
    const pre = masked.slice(Math.max(0, start - 30), start);
    const post = masked.slice(end, end + 20);
    const bare = text.trim().toLowerCase();
    // "I may", "sat down": abbreviations and homographs count only as written dates.
    if (AMBIGUOUS_WORDS.test(bare)) {
      const written = original.slice(r.index, end);
      if (!/^[A-Z]/.test(written) && !ANCHORING.test(pre)) continue;
    }
    // "the week", "a month": chrono reads a date into these; they are not one.
    if (/^(?:the\s+|a\s+)?(?:week|month|year|weekend|day)$/.test(bare)) continue;
    const c = r.start;
    const bound = /\b(after|past|from|since|before|by|until|till|til|no\s+later\s+than|between|starting(?:\s+on)?|beginning|through|thru|up\s+to)\s*$/.exec(
      pre,
    )?.[1];
    if (bound) start -= pre.length - pre.lastIndexOf(bound);
    const spanOf: Span = { start, end };

    // ---- the date part
    let read = dateOf(c, bare, post, now.today);
    const numeric = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/.exec(bare);
    if (now.dayFirst && numeric && read && read !== 'skip' && read.kind === 'date' && c.isCertain('day') && c.isCertain('month')) {
      const day = Number(numeric[1]);
      const month = Number(numeric[2]);
      if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
        let year = numeric[3] ? Number(numeric[3].length === 2 ? `20${numeric[3]}` : numeric[3]) : now.today.year;
        if (!numeric[3] && (month < now.today.month || (month === now.today.month && day < now.today.day))) year++;
        const date = { year, month, day };
        if (addDays(date, 0).day === day) read = { kind: 'date', date };
      }
    }
    if (read === 'skip') continue;
    let date: LocalDate | undefined;
    let weekday: number | undefined;
    if (read?.kind === 'date') ({ date, weekday } = read);
    else if (read?.kind === 'month')
      out.days.push({
        type: 'days',
        ...spanOf,
        label: text.trim(),
        from: read.from,
        to: read.to,
        ...(bound === 'until' || bound === 'till' ? { boundOnly: true } : {}),
      });
    // "at 7pm until Friday": a range whose end is a day bounds a repetition.
    const endRead = r.end ? dateOf(r.end, bare, post, now.today) : undefined;
    if (!date && endRead && endRead !== 'skip' && endRead.kind === 'date' && /\b(?:until|till|til|through|thru|to)\b/.test(bare)) {
      out.days.push({
        type: 'days',
        ...spanOf,
        label: `until ${bare.replace(/^.*\b(?:until|till|til|through|thru|to)\s+/, '')}`,
        from: now.today,
        to: endRead.date,
        boundOnly: true,
      });
    }

    // "before noon on Saturday": with a time of day, the bound word is about the time.
    const dateBound = c.isCertain('hour') ? (bound && /^(?:from|since|starting|beginning)/.test(bound) ? bound : undefined) : bound;
    if (date) {
      const bound = dateBound;
      if (bound === 'by' || bound === 'before' || /^no\s+later/.test(bound ?? '')) {
        out.days.push({
          type: 'days',
          ...spanOf,
          label: `${bound} ${text.trim()}`,
          from: now.today,
          to: bound === 'before' ? addDays(date, -1) : date,
          deadline: true,
        });
      } else if (bound && /^(?:until|till|til|through|thru|up)/.test(bound)) {
        out.days.push({ type: 'days', ...spanOf, label: `until ${text.trim()}`, from: now.today, to: date, boundOnly: true });
      } else {
        const from = Boolean(bound && /^(?:from|since|starting|beginning)/.test(bound));
        out.dates.push({ type: 'date', ...spanOf, date, ...(weekday !== undefined ? { weekday } : {}), ...(from ? { from: true } : {}) });
      }
    }

    // ---- the time part
    if (c.isCertain('hour')) {
      const hour = c.get('hour')!;
      const minutes = hour * 60 + (c.get('minute') ?? 0);
      // A leading zero ("08:30") is a 24-hour clock: the half of the day is fixed.
      const certain = c.isCertain('meridiem') || hour === 0 || hour > 12 || /\b0\d:\d{2}\b/.test(text);
      const t: TimeFeature = { type: 'time', ...spanOf, minutes, certain };
      const endOwnDay = Boolean(r.end && ((r.end.isCertain('day') && !c.isCertain('day')) || (r.end.isCertain('weekday') && !c.isCertain('weekday'))));
      if (r.end?.isCertain('hour') && !endOwnDay) {
        const endHour = r.end.get('hour')!;
        t.endMinutes = endHour * 60 + (r.end.get('minute') ?? 0);
        t.endCertain = r.end.isCertain('meridiem') || endHour === 0 || endHour > 12;
        // "2 to 4pm": the start takes the end's half of the day.
        if (!certain && t.endCertain && endHour >= 12 && hour < 12 && hour + 12 <= endHour) {
          t.minutes += 12 * 60;
          t.certain = true;
        }
      }
      if (bound === 'after' || bound === 'past' || bound === 'since') t.bound = 'after';
      else if (bound === 'before' || bound === 'by' || bound === 'until' || bound === 'till' || bound === 'til' || /^no\s+later/.test(bound ?? ''))
        t.bound = 'before';
      else if (bound === 'between') t.bound = 'between';
      out.times.push(t);
    }
  }
  // "on the 15th": a day of this month (next month's once it has passed); chrono leaves it out.
  for (const m of masked.matchAll(/\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b/g)) {
    const span = { start: m.index, end: m.index + m[0].length };
    const taken = [...out.dates, ...out.days, ...out.times].some((f) => f.start < span.end && span.start < f.end);
    const day = Number(m[1]);
    if (taken || day < 1 || day > 31) continue;
    let date = { year: now.today.year, month: now.today.month, day };
    if (day < now.today.day) date = now.today.month === 12 ? { year: date.year + 1, month: 1, day } : { ...date, month: date.month + 1 };
    // A day the month lacks (the 31st of April) rolls to the next month that has it.
    for (let i = 0; i < 3 && addDays(date, 0).day !== day; i++)
      date = date.month === 12 ? { year: date.year + 1, month: 1, day } : { ...date, month: date.month + 1 };
    out.dates.push({ type: 'date', ...span, date });
  }
  return out;
}
