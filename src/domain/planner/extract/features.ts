import type { LocalDate } from '../../../time/local-date.js';

/** A stretch of the (normalized) prompt, `[start, end)` in UTF-16 units. */
export interface Span {
  start: number;
  end: number;
}

/** A length of time: "45 minutes", "an hour and a half", "25m". */
export interface DurationFeature extends Span {
  type: 'duration';
  minutes: number;
  /** The duration block as a tempo tag when it was written as one ("25m", "1h30m"). */
  tag?: string;
}

/** "in 30 minutes", "now": a start relative to the reference time. */
export interface RelativeFeature extends Span {
  type: 'relative';
  minutes: number;
}

/** "back by an hour", "by a week", "two days later": how far to move an existing event. */
export interface ShiftFeature extends Span {
  type: 'shift';
  /** Signed: negative moves earlier. Minutes shift the instant; days shift the local date. */
  minutes?: number;
  days?: number;
}

/** A tempo tag written in the prompt: `@deep-work`. */
export interface TagFeature extends Span {
  type: 'tag';
  tag: string;
}

/** A part of the day: morning, afternoon, evening, tonight, work hours. */
export interface RangeFeature extends Span {
  type: 'range';
  /** The tag whose profile range applies (`@morning`), or `tonight`. */
  name: string;
  /** "early morning" takes the first half of the range, "late afternoon" the second. */
  part?: 'early' | 'late';
  /** "this morning", "tonight": the range is today's. */
  today?: boolean;
}

/** Several days: this weekend, next week, in March, for the next 3 weeks, until Friday. */
export interface DaysFeature extends Span {
  type: 'days';
  label: string;
  from: LocalDate;
  /** Inclusive. */
  to: LocalDate;
  /** Only these weekdays of the window (0 = Monday); a weekend is Saturday and Sunday. */
  weekdays?: number[];
  /** "by Friday": a deadline rather than a stretch the user named. */
  deadline?: boolean;
  /** "until", "for the next 3 weeks": bounds a recurrence, says nothing about one event. */
  boundOnly?: boolean;
}

/** A repetition: every Monday and Wednesday, daily, every weekday, every other Tuesday. */
export interface RecurrenceFeature extends Span {
  type: 'recurrence';
  label: string;
  /** Weekdays (0 = Monday); undefined = the weekday of the first date (weekly) or every day. */
  weekdays?: number[];
  every: 'day' | 'week';
  interval: number;
  count?: number;
}

/** A calendar date: "tomorrow", "next Tuesday", "March 12", "2026-05-21", "in 3 days". */
export interface DateFeature extends Span {
  type: 'date';
  date: LocalDate;
  /** Set when the date came from a weekday name, so a named week can re-place it. */
  weekday?: number;
  /** "by Friday" / "before Friday". */
  deadline?: boolean;
  /** "from Monday", "starting March 3": the first day of a recurrence. */
  from?: boolean;
}

/** A wall time: "3pm", "14:00", "at 8:30", "noon". */
export interface TimeFeature extends Span {
  type: 'time';
  /** Minutes after midnight as written (hours 1–12 without am/pm are resolved later). */
  minutes: number;
  /** Whether am/pm (or a 24-hour clock) fixed the half of the day. */
  certain: boolean;
  /** "from 2 to 4pm": the end, minutes after midnight. */
  endMinutes?: number;
  endCertain?: boolean;
  /** "after 3pm" / "before noon" / "between 2 and 5": a window, not a start. */
  bound?: 'after' | 'before' | 'between';
}

/** A clock time no day has ("25:00", "at 13pm", "at 99"): the request is refused with `reason`. */
export interface BadTimeFeature extends Span {
  type: 'bad_time';
  /** The time as written. */
  written: string;
  reason: string;
}

/** Temporal words that belong to the title ("this week's progress") or are greetings ("good morning"). */
export interface ProtectedFeature extends Span {
  type: 'protected';
  /** Whether the words stay in the title. */
  keep: boolean;
}

export type Feature =
  | DurationFeature
  | RelativeFeature
  | ShiftFeature
  | TagFeature
  | RangeFeature
  | DaysFeature
  | RecurrenceFeature
  | DateFeature
  | TimeFeature
  | BadTimeFeature
  | ProtectedFeature;

export const overlapsSpan = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
export const insideSpan = (pos: number, s: Span) => pos >= s.start && pos < s.end;

/** Keep the longest of overlapping candidates (ties: the earlier one). */
export function longestFirst<T extends Span>(candidates: readonly T[]): T[] {
  const sorted = [...candidates].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: T[] = [];
  for (const c of sorted) if (!kept.some((k) => overlapsSpan(k, c))) kept.push(c);
  return kept.sort((a, b) => a.start - b.start);
}

/** The text with the given spans replaced by spaces (indexes unchanged). */
export function blank(text: string, spans: readonly Span[]): string {
  const chars = [...text.split('')];
  for (const s of spans) for (let i = s.start; i < s.end && i < chars.length; i++) chars[i] = ' ';
  return chars.join('');
}

/** Every match of a global regex with its index. */
export function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  let m: RegExpExecArray | null;
  while ((m = g.exec(text))) {
    yield m;
    if (m[0].length === 0) g.lastIndex++;
  }
}
