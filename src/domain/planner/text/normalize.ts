import { ABBREVIATIONS, CORRECTABLE, FILLER_WORDS, NOT_TYPOS, WEEKDAY_INDEX } from './words.js';

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The vocabulary word a token is a misspelling of, if it is close enough to exactly one. */
function correction(token: string): string | undefined {
  const w = token.toLowerCase();
  if (w.length < 5 || NOT_TYPOS.has(w) || FILLER_WORDS.has(w) || w in WEEKDAY_INDEX || CORRECTABLE.includes(w)) return undefined;
  const allowed = w.length >= 8 ? 2 : 1;
  // Five letters leave too many real neighbours ("match" / "march"): only swapped letters count.
  const swapOnly = w.length < 6;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  let ties = 0;
  for (const v of CORRECTABLE) {
    // The first letter is almost never the mistyped one; requiring it keeps real words out.
    if (v[0] !== w[0]) continue;
    if (swapOnly && [...w].sort().join('') !== [...v].sort().join('')) continue;
    const dist = editDistance(w, v, allowed);
    if (dist < bestDistance) {
      best = v;
      bestDistance = dist;
      ties = 0;
    } else if (dist === bestDistance) ties++;
  }
  return best && bestDistance <= allowed && ties === 0 ? best : undefined;
}

function keepCase(original: string, replacement: string): string {
  return original[0] === original[0]!.toUpperCase() && original[0] !== original[0]!.toLowerCase()
    ? replacement[0]!.toUpperCase() + replacement.slice(1)
    : replacement;
}

export interface Normalized {
  /** The prompt with spaces collapsed (line breaks kept), abbreviations expanded and typos fixed (original case kept). */
  text: string;
  /** The same, lowercased character by character so that indexes match `text`. */
  lower: string;
  /** Each fix made, for the reasoning ("read 'tomorow' as 'tomorrow'"). */
  fixes: { from: string; to: string; kind: 'abbreviation' | 'typo' }[];
}

/** Lowercase without changing the length (a few characters lowercase to two code units). */
export function lowerSameLength(s: string): string {
  let out = '';
  for (const ch of s) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/**
 * Prepare a prompt for the grammar: straight quotes, single spaces, common abbreviations
 * ("tmrw", "appt") written out and misspelled date words ("tomorow", "wednesay") corrected.
 */
export function normalizePrompt(prompt: string): Normalized {
  const fixes: Normalized['fixes'] = [];
  const cleaned = prompt
    .replace(/[\u2018\u2019\u2032]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, ' - ')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    // Line breaks separate items ("- dentist 3pm\n- gym friday"); list markers are dropped.
    .replace(/\s*[\r\n]+\s*(?:[-*\u2022]\s+|\d+[.)]\s+)?/g, '\n')
    .replace(/^(?:[-*\u2022]\s+|\d+[.)]\s+)/, '')
    .trim();
  const text = cleaned.replace(/[A-Za-z0-9][A-Za-z0-9']*/g, (token) => {
    const lower = token.toLowerCase();
    // Own keys only: a prompt may well say "constructor" or "toString".
    const abbreviation = Object.hasOwn(ABBREVIATIONS, lower) ? ABBREVIATIONS[lower] : undefined;
    if (abbreviation && abbreviation !== lower) {
      fixes.push({ from: token, to: abbreviation, kind: 'abbreviation' });
      return keepCase(token, abbreviation);
    }
    if (!/^[a-z']+$/.test(lower)) return token;
    const fixed = correction(lower);
    if (!fixed) return token;
    fixes.push({ from: token, to: fixed, kind: 'typo' });
    return keepCase(token, fixed);
  });
  return { text, lower: lowerSameLength(text), fixes };
}
