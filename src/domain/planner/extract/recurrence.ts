import { NUMBER_RE, parseNumber, WEEKDAY_INDEX, WEEKDAY_NAMES, WEEKDAY_RE } from '../text/words.js';
import { longestFirst, matches, type RecurrenceFeature } from './features.js';

const FULL_PLURAL = `(?:${WEEKDAY_NAMES.join('|')})s`;
const JOIN = '(?:\\s*,\\s*(?:and\\s+|&\\s*|or\\s+)?|\\s+and\\s+|\\s*&\\s*|\\s+or\\s+)';
const DAY_LIST = `${WEEKDAY_RE}s?(?:${JOIN}${WEEKDAY_RE}s?)*`;

function weekdaysIn(text: string): number[] {
  const found = new Set<number>();
  for (const m of matches(new RegExp(`\\b(${WEEKDAY_RE})s?\\b`), text)) {
    const i = Object.hasOwn(WEEKDAY_INDEX, m[1]!) ? WEEKDAY_INDEX[m[1]!] : undefined;
    if (i !== undefined) found.add(i);
  }
  return [...found].sort((a, b) => a - b);
}

const NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const listNames = (days: number[]) => {
  const names = days.map((d) => NAMES[d]!);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
};

/**
 * Repetitions: "every Monday and Wednesday", "on Tuesdays", "every other Friday", "daily",
 * "every weekday", "every morning", "weekly", "every 3 days", "5 times".
 */
export function extractRecurrence(lower: string): RecurrenceFeature[] {
  const found: RecurrenceFeature[] = [];
  const add = (m: RegExpExecArray, f: Omit<RecurrenceFeature, 'type' | 'start' | 'end'>) =>
    found.push({ type: 'recurrence', start: m.index, end: m.index + m[0].length, ...f });

  for (const m of matches(new RegExp(`\\b(?:every|each)\\s+(other\\s+|second\\s+)?(${DAY_LIST})\\b`), lower)) {
    const days = weekdaysIn(m[2]!);
    if (days.length) add(m, { label: `every ${m[1] ? 'other ' : ''}${listNames(days)}`, weekdays: days, every: 'week', interval: m[1] ? 2 : 1 });
  }
  for (const m of matches(new RegExp(`\\b(?:on\\s+)?${FULL_PLURAL}(?:${JOIN}${WEEKDAY_RE}s?)*\\b`), lower)) {
    const days = weekdaysIn(m[0]);
    if (days.length) add(m, { label: `every ${listNames(days)}`, weekdays: days, every: 'week', interval: 1 });
  }
  for (const m of matches(/\b(?:every|each)\s+(?:single\s+)?day\b|\bdaily\b|\beveryday\b|\bevery\s+(?=(?:morning|afternoon|evening|night)\b)/, lower)) {
    add(m, { label: 'every day', every: 'day', interval: 1 });
  }
  for (const m of matches(
    /\b(?:every|each)\s+(?:weekday|work\s*day|working\s+day|business\s+day)\b|\b(?:on\s+)?weekdays\b|\bworkdays\b|\bmonday\s+(?:to|through|thru|-)\s+friday\b/,
    lower,
  )) {
    add(m, { label: 'every weekday', weekdays: [0, 1, 2, 3, 4], every: 'week', interval: 1 });
  }
  for (const m of matches(/\b(?:every|each)\s+weekend\b|\b(?:on\s+)?weekends\b/, lower)) {
    add(m, { label: 'every weekend', weekdays: [5, 6], every: 'week', interval: 1 });
  }
  for (const m of matches(/\b(?:every|each)\s+(other\s+)?week\b|\bweekly\b|\bonce\s+a\s+week\b|\b(bi-?weekly|fortnightly)\b/, lower)) {
    const two = Boolean(m[1] || m[2]);
    add(m, { label: two ? 'every other week' : 'every week', every: 'week', interval: two ? 2 : 1 });
  }
  for (const m of matches(new RegExp(`\\bevery\\s+(${NUMBER_RE}|other)\\s+(days?|weeks?)\\b`), lower)) {
    const n = m[1] === 'other' ? 2 : parseNumber(m[1]!);
    if (!n || n < 1) continue;
    const every = m[2]!.startsWith('week') ? 'week' : 'day';
    add(m, { label: `every ${n} ${every}s`, every, interval: Math.round(n) });
  }
  const kept = longestFirst(found);
  // "5 times" / "for 6 sessions": how many occurrences.
  for (const m of matches(new RegExp(`\\b(?:for\\s+)?(${NUMBER_RE})\\s+(?:times|sessions|occurrences)\\b`), lower)) {
    const n = parseNumber(m[1]!);
    if (!n || !kept.length) continue;
    kept[0]!.count = Math.round(n);
    kept.push({ ...kept[0]!, start: m.index, end: m.index + m[0].length });
  }
  return kept;
}
