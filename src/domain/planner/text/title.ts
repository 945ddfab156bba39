import { FILLER_WORDS, LEADING_PHRASES, TRAILING_PHRASES } from './words.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byLength = (a: string, b: string) => b.length - a.length;
const LEADING = new RegExp(`^(?:${[...LEADING_PHRASES].sort(byLength).map(escapeRegExp).join('|')})\\b\\s*`, 'i');
const TRAILING = new RegExp(`\\s*\\b(?:${[...TRAILING_PHRASES].sort(byLength).map(escapeRegExp).join('|')})$`, 'i');

/** The words of a text that say what the task is: not filler, not a bare number. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9][a-z0-9':/-]*/g)) {
    const w = m[0].replace(/'s$/, '').replace(/[':/-]+$/, '');
    if (!w || FILLER_WORDS.has(w) || /^\d+$/.test(w)) continue;
    out.push(w);
  }
  return out;
}

/** Strip request phrases at the start and dangling words at the end, repeatedly. */
function trimPhrases(s: string): string {
  let t = s.trim();
  for (let guard = 0; guard < 40; guard++) {
    const next = t
      .replace(LEADING, '')
      .replace(TRAILING, '')
      .replace(/^[\s"'`([{<-]+|[\s"'`)\]}>:,;-]+$/g, '')
      .trim();
    if (next === t) break;
    t = next;
  }
  return t;
}

/**
 * A short title from what is left of a request once its dates, times and durations are blanked:
 * "Um, so, could you maybe put a haircut on my calendar for ___? thanks!!" → "Haircut".
 * Clauses with no task words (greetings, thanks) are dropped; request phrases and dangling
 * prepositions are trimmed.
 */
export function titleFrom(blanked: string): string {
  const parts = blanked
    .replace(/(^|\s)@(?=\s|$)/g, ' ')
    .split(/[,;:?!.]+(?=\s|$)|\s+-\s+|[()\n]/)
    .map((c) => c.replace(/\s+/g, ' ').trim())
    .filter((c) => contentWords(c).length > 0);
  // "If it's not too much trouble, …": a courtesy clause, when another clause names the task.
  const clauses = parts.length > 1 ? parts.filter((c) => !/^(?:if|when|whenever|as\s+long\s+as|only\s+if)\b/i.test(c)) : parts;
  const title = trimPhrases(clauses.map(trimPhrases).filter(Boolean).join(', '));
  const short = title.length > 120 ? title.slice(0, 117).replace(/\s+\S*$/, '') + '…' : title;
  return short ? short[0]!.toUpperCase() + short.slice(1) : '';
}

/** A task id from a title: lowercase words joined by dashes ("Dentist appointment" → "dentist-appointment"). */
export function slug(title: string): string {
  const s = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'task';
}
