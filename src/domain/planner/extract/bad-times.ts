import { type BadTimeFeature, matches, overlapsSpan, type Span } from './features.js';

const HOURS = 'hours run from 0 to 23';
const MINUTES = 'minutes run from 0 to 59';
const HALF_DAY = 'with am or pm, hours run from 1 to 12';

/**
 * Clock times no day has, which chrono-node leaves unread: "25:00", "10:75", "13pm", "at 99",
 * "tomorrow 99". Left alone they would become words of the title; found here, the request is
 * refused with the reason. `taken` are the spans other grammars read (a date, a duration…).
 */
export function extractBadTimes(lower: string, taken: readonly Span[]): BadTimeFeature[] {
  const out: BadTimeFeature[] = [];
  const add = (start: number, end: number, written: string, why: string) => {
    const span = { start, end };
    if (taken.some((t) => overlapsSpan(t, span)) || out.some((o) => overlapsSpan(o, span))) return;
    out.push({ type: 'bad_time', ...span, written, reason: `"${written}" is not a time of day (${why})` });
  };
  for (const m of matches(/(?<![\d:./-])(?:\bat\s+)?(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\.?)?(?![\d:])/, lower)) {
    const [h, min] = [Number(m[1]), Number(m[2])];
    const why = min > 59 ? MINUTES : m[3] && (h < 1 || h > 12) ? HALF_DAY : h > 23 ? HOURS : undefined;
    if (why) add(m.index, m.index + m[0].length, m[0].replace(/^at\s+/, ''), why);
  }
  for (const m of matches(/(?<![\d:./-])(?:\bat\s+)?(\d{1,3})\s*([ap])\.?m\b\.?/, lower)) {
    const h = Number(m[1]);
    if (h < 1 || h > 12) add(m.index, m.index + m[0].length, m[0].replace(/^at\s+/, ''), HALF_DAY);
  }
  // "at 99": a number after "at" that no grammar read as a time, date or length.
  for (const m of matches(/\bat\s+(\d{2,3})(?![\d:./-]|\s*(?:[ap]\.?m|%|percent|[a-z]))/, lower)) {
    if (Number(m[1]) > 24) add(m.index, m.index + m[0].length, m[1]!, HOURS);
  }
  return out;
}
