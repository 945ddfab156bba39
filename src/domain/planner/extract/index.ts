import type { Normalized } from '../text/normalize.js';
import { extractBadTimes } from './bad-times.js';
import { extractDateTimes, type WallNow } from './datetime.js';
import { extractTimeAmounts } from './durations.js';
import { blank, type Feature, overlapsSpan, type Span } from './features.js';
import { extractDays, extractProtected, extractRanges, extractTags } from './periods.js';
import { extractRecurrence } from './recurrence.js';

/**
 * Every temporal feature of a prompt, each with the stretch of text it came from. Specific
 * grammars run first and blank what they read, so chrono-node (last) never mistakes "45 minutes"
 * for a time of day or "this week's" for a date.
 */
export function extractFeatures(n: Normalized, now: WallNow): Feature[] {
  const lower = n.lower;
  const protectedSpans = extractProtected(lower);
  const tags = extractTags(lower);
  const recurrence = extractRecurrence(lower);
  const amounts = extractTimeAmounts(lower);
  const amountSpans: Span[] = [...amounts.durations, ...amounts.relatives, ...amounts.shifts];
  const ranges = extractRanges(lower, [...protectedSpans, ...tags, ...amountSpans]);
  const days = extractDays(lower, now.today, [...protectedSpans, ...recurrence, ...amountSpans]);
  const early: Feature[] = [
    ...protectedSpans,
    ...tags,
    ...recurrence,
    ...amounts.durations.filter((d) => !recurrence.some((r) => overlapsSpan(r, d))),
    ...amounts.relatives,
    ...amounts.shifts,
    ...ranges,
    ...days,
  ];
  const masked = blank(lower, early);
  const dt = extractDateTimes(masked, n.text, now);
  const read = [...early, ...dt.days, ...dt.dates, ...dt.times];
  // "tomorrow 99": a bare number right after a date, where a time of day would be.
  const afterDate = dt.dates.flatMap((d) => {
    const m = /^\s+(\d{2,3})(?=\s*(?:$|[,;.!?]|\s(?:and|for|with|then)\b))/.exec(lower.slice(d.end));
    return m && Number(m[1]) > 24
      ? [
          {
            type: 'bad_time' as const,
            start: d.end + m[0].length - m[1]!.length,
            end: d.end + m[0].length,
            written: m[1]!,
            reason: `"${m[1]}" is not a time of day (hours run from 0 to 23)`,
          },
        ]
      : [];
  });
  const bad = [...extractBadTimes(lower, read), ...afterDate.filter((b) => !read.some((r) => overlapsSpan(r, b)))];
  return [...read, ...bad].sort((a, b) => a.start - b.start || a.end - b.end);
}
