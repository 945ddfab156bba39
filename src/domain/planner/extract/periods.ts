import { addDays, type LocalDate, startOfIsoWeek, WEEKDAYS, weekdayOf } from '../../../time/local-date.js';
import { MONTH_RE, monthIndex, NUMBER_RE, parseNumber, WEEKDAY_RE } from '../text/words.js';
import { type DaysFeature, matches, overlapsSpan, type ProtectedFeature, type RangeFeature, type Span, type TagFeature } from './features.js';

const span = (m: RegExpExecArray, from = 0): Span => ({ start: m.index + from, end: m.index + m[0].length });
const clear = (s: Span, taken: readonly Span[]) => !taken.some((t) => overlapsSpan(t, s));

/**
 * Temporal words that are not a time for the task: possessives that belong to the title
 * ("this week's progress"), the past ("last Friday", "yesterday") and greetings ("good morning").
 */
export function extractProtected(lower: string): ProtectedFeature[] {
  const out: ProtectedFeature[] = [];
  const keep = [
    /\b(?:(?:this|last|next)\s+(?:week|month|year|weekend)|today|tomorrow|yesterday|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)'s\b/,
    new RegExp(`\\b(?:last|past|previous)\\s+(?:week|month|year|weekend|night|${WEEKDAY_RE})\\b`),
    /\byesterday\b/,
    /\b\d+\s+(?:days|weeks|months|hours)\s+ago\b/,
  ];
  for (const re of keep) for (const m of matches(re, lower)) out.push({ type: 'protected', ...span(m), keep: true });
  for (const m of matches(/\bgood\s+(?:morning|afternoon|evening|night|day)\b/, lower)) out.push({ type: 'protected', ...span(m), keep: false });
  // "at some point", "whenever you can": no time at all, and not part of the title either.
  for (const m of matches(/\b(?:at\s+some\s+point|whenever\s+(?:possible|you\s+can)|when(?:ever)?\s+you\s+get\s+a\s+chance|if\s+possible)\b/, lower))
    out.push({ type: 'protected', ...span(m), keep: false });
  return out;
}

/** `@deep-work`-style tags written in the prompt. */
export function extractTags(lower: string): TagFeature[] {
  return [...matches(/(?<![\w@])@([a-z0-9]+(?:-[a-z0-9]+)*)\b/, lower)].map((m) => ({ type: 'tag' as const, ...span(m), tag: `@${m[1]}` }));
}

/** Parts of the day: "tomorrow morning", "this afternoon", "tonight", "late evening", "during work hours". */
export function extractRanges(lower: string, taken: readonly Span[]): RangeFeature[] {
  const out: RangeFeature[] = [];
  const re = /\b(?:(?:in|during)\s+the\s+|at\s+|(this)\s+|(?:some\s*time\s+)?)(?:(early|late|mid)[\s-]+)?(morning|afternoon|evening|night)s?\b(?!')/;
  for (const m of matches(re, lower)) {
    const s = span(m);
    if (!clear(s, taken)) continue;
    const part = m[2] === 'early' ? 'early' : m[2] === 'late' ? 'late' : undefined;
    const word = m[3]!;
    out.push({ type: 'range', ...s, name: word === 'night' ? 'tonight' : `@${word}`, ...(part ? { part } : {}), ...(m[1] ? { today: true } : {}) });
  }
  for (const m of matches(/\btonight\b(?!')/, lower)) {
    const s = span(m);
    if (clear(s, taken)) out.push({ type: 'range', ...s, name: 'tonight', today: true });
  }
  for (const m of matches(/\b(?:during\s+|in\s+|within\s+)?(?:work(?:ing)?|office|business)\s+hours\b/, lower)) {
    const s = span(m);
    if (clear(s, taken)) out.push({ type: 'range', ...s, name: '@work' });
  }
  return out;
}

const lastDayOfMonth = (year: number, month: number): LocalDate =>
  addDays({ year: month === 12 ? year + 1 : year, month: month === 12 ? 1 : month + 1, day: 1 }, -1);
const weekdayIndex = (d: LocalDate) => WEEKDAYS.indexOf(weekdayOf(d));

/** The coming weekend (today's when it is Saturday or Sunday), or next calendar week's. */
function weekend(today: LocalDate, next: boolean): { from: LocalDate; to: LocalDate } {
  if (next) {
    const monday = addDays(startOfIsoWeek(today), 7);
    return { from: addDays(monday, 5), to: addDays(monday, 6) };
  }
  const dow = weekdayIndex(today);
  if (dow >= 5) return { from: today, to: addDays(startOfIsoWeek(today), 6) };
  return { from: addDays(today, 5 - dow), to: addDays(today, 6 - dow) };
}

/** A month named without a year: this year's unless it is over, then next year's; today on if current. */
function monthWindow(today: LocalDate, month: number, year?: number): { from: LocalDate; to: LocalDate } {
  const y = year ?? (month < today.month ? today.year + 1 : today.year);
  const first = { year: y, month, day: 1 };
  const from = y === today.year && month === today.month ? today : first;
  return { from, to: lastDayOfMonth(y, month) };
}

/**
 * Stretches of several days: this weekend, this/next week, this/next month, "in March", "for the
 * next 3 weeks", "within 5 days".
 */
export function extractDays(lower: string, today: LocalDate, taken: readonly Span[]): DaysFeature[] {
  const out: DaysFeature[] = [];
  const push = (m: RegExpExecArray, f: Omit<DaysFeature, 'type' | 'start' | 'end'>) => {
    const s = span(m);
    if (clear(s, [...taken, ...out])) out.push({ type: 'days', ...s, ...f });
  };
  for (const m of matches(/\b(?:(?:this|the|over\s+the|on\s+the|at\s+the|during\s+the)\s+)?(?:(next|coming|following)\s+)?weekend\b(?!')/, lower)) {
    const next = m[1] === 'next' || m[1] === 'following';
    push(m, { label: next ? 'next weekend' : 'this weekend', ...weekend(today, next), weekdays: [5, 6] });
  }
  for (const m of matches(/\b(?:(?:later|sometime|some\s+time)\s+)?this\s+week\b(?!')/, lower)) {
    push(m, { label: 'this week', from: today, to: addDays(startOfIsoWeek(today), 6) });
  }
  for (const m of matches(/\b(?:sometime\s+|some\s+time\s+)?(?:next|the\s+following)\s+week\b(?!')/, lower)) {
    const monday = addDays(startOfIsoWeek(today), 7);
    push(m, { label: 'next week', from: monday, to: addDays(monday, 6) });
  }
  for (const m of matches(/\b(?:(?:later|sometime)\s+)?this\s+month\b(?!')/, lower)) {
    push(m, { label: 'this month', from: today, to: lastDayOfMonth(today.year, today.month) });
  }
  for (const m of matches(/\bnext\s+month\b(?!')/, lower)) {
    const month = today.month === 12 ? 1 : today.month + 1;
    const year = today.month === 12 ? today.year + 1 : today.year;
    push(m, { label: 'next month', from: { year, month, day: 1 }, to: lastDayOfMonth(year, month) });
  }
  const monthRe = new RegExp(`\\b(?:in|during|throughout|for|over)\\s+(?:the\\s+month\\s+of\\s+|all\\s+of\\s+)?(${MONTH_RE})\\b(?:\\s+(\\d{4}))?(?!\\s+\\d)`);
  for (const m of matches(monthRe, lower)) {
    const month = monthIndex(m[1]!);
    if (month === undefined) continue;
    push(m, { label: `in ${m[1]}`, ...monthWindow(today, month, m[2] ? Number(m[2]) : undefined) });
  }
  const nextN = new RegExp(`\\b(for|over|during|within|in)\\s+(?:the\\s+)?(?:(next|coming|following)\\s+)?(${NUMBER_RE})\\s+(days?|weeks?|months?)\\b`);
  for (const m of matches(nextN, lower)) {
    const [, prep, next, amount, unit] = m;
    // "in 3 days" is a date (three days from now), read by the date parser.
    if (prep === 'in' && !next) continue;
    const n = parseNumber(amount!);
    if (n === undefined || n <= 0) continue;
    const days = Math.round(n * (unit!.startsWith('week') ? 7 : unit!.startsWith('month') ? 30 : 1));
    push(m, { label: m[0].trim(), from: today, to: addDays(today, days - 1), boundOnly: prep === 'for' });
  }
  return out;
}
