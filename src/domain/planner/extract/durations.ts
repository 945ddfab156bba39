import { tagMinutes } from '../../../time/tags.js';
import { NUMBER_RE, parseNumber } from '../text/words.js';
import { type DurationFeature, longestFirst, matches, type RelativeFeature, type ShiftFeature, type Span } from './features.js';

const N = NUMBER_RE;
const H = '(?:hours?|hrs?)';
const M = '(?:minutes?|mins?)';
const MAX_MINUTES = 24 * 60;

interface Candidate extends Span {
  minutes: number;
  tag?: string;
}

type Rule = [RegExp, (m: RegExpExecArray) => number | undefined];

const num = (s: string | undefined, dflt = 1) => (s === undefined ? dflt : parseNumber(s));

/** Every way of writing a length of time the planner reads, each with its value in minutes. */
const RULES: Rule[] = [
  // "two and a half hours", "1 and a half hours"
  [new RegExp(`\\b(${N})\\s+and\\s+a\\s+half\\s+${H}\\b`), (m) => (num(m[1]) ?? NaN) * 60 + 30],
  // "an hour and a half", "hour and a half", "two hours and a half"
  [new RegExp(`\\b(?:(${N})\\s+)?${H}\\s+and\\s+a\\s+half\\b`), (m) => (num(m[1]) ?? NaN) * 60 + 30],
  // "half an hour", "half-hour", "a half hour"
  [/\b(?:a\s+)?half(?:\s+an?)?[\s-]+hour\b/, () => 30],
  // "three quarters of an hour", "3/4 of an hour"
  [/\b(?:three|3)[\s-]+quarters?\s+of\s+an?\s+hour\b|\b3\/4\s+(?:of\s+an?\s+)?hour\b/, () => 45],
  // "a quarter of an hour", "quarter hour"
  [/\b(?:a\s+)?quarter(?:\s+of\s+an?)?[\s-]+hour\b/, () => 15],
  // "1h30", "2h15m", "1h30m"
  [/\b(\d{1,2})h(\d{1,2})m?\b/, (m) => Number(m[1]) * 60 + Number(m[2])],
  // "1 hour 30 minutes", "2 hrs and 15 mins", "1h 30m"
  [new RegExp(`\\b(${N})\\s*(?:${H}|h)\\s*(?:and\\s+)?(${N})\\s*(?:${M}|m)\\b`), (m) => (num(m[1]) ?? NaN) * 60 + (num(m[2]) ?? NaN)],
  // "2 hrs", "3 hours", "two-hour", "1.5 hours", "a couple of hours"
  [new RegExp(`\\b(${N})[\\s-]*${H}\\b`), (m) => (num(m[1]) ?? NaN) * 60],
  [/\b(?<![\d:.])(\d+(?:\.\d+)?)h\b/, (m) => Number(m[1]) * 60],
  // "45 min", "90-minute", "20 mins"
  [new RegExp(`\\b(${N})[\\s-]*${M}\\b`), (m) => num(m[1]) ?? NaN],
  [/\b(?<![\d:.])(\d+)m\b/, (m) => Number(m[1])],
];

function candidates(lower: string): Candidate[] {
  const out: Candidate[] = [];
  for (const [re, value] of RULES) {
    for (const m of matches(re, lower)) {
      const minutes = Math.round(value(m) ?? NaN);
      if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_MINUTES) continue;
      const text = m[0];
      const tag = tagMinutes(text) !== undefined ? text : undefined;
      out.push({ start: m.index, end: m.index + text.length, minutes, ...(tag ? { tag } : {}) });
    }
  }
  return longestFirst(out);
}

const before = (lower: string, at: number) => lower.slice(Math.max(0, at - 24), at);
const after = (lower: string, at: number) => lower.slice(at, at + 16);

const DAY_SHIFT = new RegExp(
  `\\b(?:(by|back|forward|ahead|up)\\s+(?:by\\s+)?)?(${N})\\s+(days?|weeks?)(?:\\s+(later|earlier|sooner|ahead|back|forward))?\\b`,
  'g',
);

const EARLIER = new Set(['forward', 'ahead', 'up', 'earlier', 'sooner']);

export interface TimeAmounts {
  durations: DurationFeature[];
  relatives: RelativeFeature[];
  shifts: ShiftFeature[];
}

/**
 * Lengths of time, read by their role: a duration ("for 45 minutes"), a start relative to now
 * ("in 30 minutes"), or a shift of an existing event ("back by an hour", "by a week").
 */
export function extractTimeAmounts(lower: string): TimeAmounts {
  const durations: DurationFeature[] = [];
  const relatives: RelativeFeature[] = [];
  const shifts: ShiftFeature[] = [];
  const earlierWords = (s: string) => {
    const w = /(\w+)\s*$/.exec(s)?.[1];
    return w !== undefined && EARLIER.has(w);
  };

  for (const c of candidates(lower)) {
    const pre = before(lower, c.start);
    const post = after(lower, c.end);
    if (/\b(?:every|each)\s*$/.test(pre) || /^\s*(?:ago)\b/.test(post)) continue;
    // "squeeze in 30 minutes" asks for 30 minutes; "in 30 minutes" is when to start.
    if (/\bin\s*$/.test(pre) && !/\b(?:squeeze|fit|pencil|slot|block|book|schedule|put|get|plan|sneak|work)\s+(?:it\s+|me\s+)?in\s*$/.test(pre)) {
      const at = pre.lastIndexOf('in');
      relatives.push({ type: 'relative', start: c.start - (pre.length - at), end: c.end, minutes: c.minutes });
      continue;
    }
    const shiftBefore = /\b(by|back|forward|ahead|up)(?:\s+by)?\s*$/.exec(pre);
    const shiftAfter = /^\s*(later|earlier|sooner|ahead|back|forward)\b/.exec(post);
    if (shiftBefore || shiftAfter) {
      const earlier = (shiftAfter && EARLIER.has(shiftAfter[1]!)) || (shiftBefore && earlierWords(pre.replace(/\s+by\s*$/, ' ')));
      const start = shiftBefore ? c.start - shiftBefore[0].length : c.start;
      const end = shiftAfter ? c.end + shiftAfter[0].length : c.end;
      shifts.push({ type: 'shift', start, end, minutes: earlier ? -c.minutes : c.minutes });
      continue;
    }
    durations.push({ type: 'duration', start: c.start, end: c.end, minutes: c.minutes, ...(c.tag ? { tag: c.tag } : {}) });
  }

  for (const m of matches(DAY_SHIFT, lower)) {
    const [, pre, amount, unit, post] = m;
    if (!pre && !post) continue;
    const n = parseNumber(amount!);
    if (n === undefined) continue;
    const days = Math.round(n * (unit!.startsWith('week') ? 7 : 1));
    const earlier = (post && EARLIER.has(post)) || (pre && EARLIER.has(pre));
    const span = { start: m.index, end: m.index + m[0].length };
    if (shifts.some((s) => s.start < span.end && span.start < s.end)) continue;
    shifts.push({ type: 'shift', ...span, days: earlier ? -days : days });
  }

  // "now" / "right now" / "asap": start as soon as possible.
  // "for now", "by now", "from now" are idioms, not a start time.
  for (const m of matches(/\b(?:right\s+now|(?<!\b(?:for|by|until|till|from|just)\s+)now|asap|immediately|right\s+away)\b/, lower)) {
    relatives.push({ type: 'relative', start: m.index, end: m.index + m[0].length, minutes: 0 });
  }
  return { durations, relatives, shifts };
}
