import { blank, type Feature, matches, type Span } from './extract/features.js';
import { contentWords } from './text/title.js';

/** One request of a prompt that may hold several ("gym at 7 and call mom on Sunday"). */
export interface Segment extends Span {
  features: Feature[];
}

interface Separator extends Span {
  strong: boolean;
}

const STRONG =
  /\s*;\s*(?:and\s+|also\s+|then\s+)*|,?\s+(?:and\s+)?then\s+|,?\s+(?:and\s+)?also\s+|,?\s+plus\s+|,?\s+after\s+that\s*,?\s+|\s*\n\s*|(?<=[.!?])\s+/;
const WEAK = /,?\s+and\s+|\s+&\s+|\s*,\s*/;
const ABBREVIATION_BEFORE = /\b(?:dr|mr|mrs|ms|st|vs|etc|e\.g|i\.e|approx|no)\.$/i;

const timeFeature = (f: Feature) => f.type !== 'protected';

function separators(lower: string, features: readonly Feature[]): Separator[] {
  const out: Separator[] = [];
  // A separator strictly inside a feature ("an hour and a half", "Monday and Wednesday") is not one.
  const inFeature = (s: Span) => features.some((f) => f.type !== 'protected' && f.start < s.start && f.end > s.end - 1);
  for (const [re, strong] of [
    [STRONG, true],
    [WEAK, false],
  ] as const) {
    for (const m of matches(re, lower)) {
      const s = { start: m.index, end: m.index + m[0].length, strong };
      if (s.end <= s.start || inFeature(s)) continue;
      if (strong && /^\s+$/.test(m[0]) && ABBREVIATION_BEFORE.test(lower.slice(0, s.start))) continue;
      if (out.some((o) => o.start < s.end && s.start < o.end)) continue;
      out.push(s);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Split a prompt into requests. A strong separator (";", "then", "also", a new sentence or line)
 * splits when both sides name a task; a weak one ("and", a comma) only when both sides also
 * carry their own time, so "Tom and Jerry at noon" and "an hour and a half" stay whole.
 */
export function segment(lower: string, features: readonly Feature[]): Segment[] {
  const blanked = blank(
    lower,
    features.filter((f) => f.type !== 'protected' || !f.keep),
  );
  const has = (s: Span) => contentWords(blanked.slice(s.start, s.end)).length > 0;
  const anchored = (s: Span) => features.some((f) => timeFeature(f) && f.start >= s.start && f.end <= s.end);
  const seps = separators(lower, features);
  const spans: Span[] = [];
  let from = 0;
  seps.forEach((sep, i) => {
    const left = { start: from, end: sep.start };
    const right = { start: sep.end, end: seps[i + 1]?.start ?? lower.length };
    if (!has(left) || !has(right)) return;
    if (!sep.strong && !(anchored(left) && anchored(right))) return;
    spans.push(left);
    from = sep.end;
  });
  spans.push({ start: from, end: lower.length });
  return spans.map((s) => ({ ...s, features: features.filter((f) => f.start >= s.start && f.start < s.end) }));
}
