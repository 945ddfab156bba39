import { HIT_FIELDS_MAX, HIT_TEXT_MAX, type SearchResult, type StoredTrace } from '../../contracts/memory.js';

/** The part of a search hit that shows the trace itself: its text, where the query matched, its fields. */
export type HitText = Pick<SearchResult, 'content' | 'snippet' | 'highlights' | 'content_length' | 'fields' | 'fields_omitted'>;

/** At most this many highlights per hit: enough to mark a window, bounded for a word found everywhere. */
const MAX_HIGHLIGHTS = 64;
/** A snippet starts this far before its first match, so the match is read in its sentence. */
const LEAD = 120;
/** Query words that mark nothing: they occur in every text. */
const UNMARKED = new Set(
  'about after also and are but can did does for from had has have her his how its not our she that the their them then there they this was were what when where which who why will with you your'.split(
    ' ',
  ),
);
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The query's words as the prefixes to mark in a text: "meetings" marks "meeting" and "meetings",
 * a literal, language-neutral approximation of the keyword index's stemming (which lives behind
 * the search port, in another layer).
 */
export function markPrefixes(query: string): string[] {
  const out = new Set<string>();
  for (const [w] of query.toLowerCase().matchAll(WORD)) {
    if (w.length < 3 || UNMARKED.has(w)) continue;
    out.add(w.length >= 5 ? w.slice(0, Math.max(4, w.length - 2)) : w);
  }
  return [...out];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** [start, end) of every word of `text` that begins with one of the prefixes, in order, at most MAX_HIGHLIGHTS. */
export function findHighlights(text: string, prefixes: string[]): [number, number][] {
  if (!prefixes.length) return [];
  // Case-insensitive on the original text: offsets stay those of the content (lowercasing may change lengths).
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${prefixes.map(escapeRegExp).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const out: [number, number][] = [];
  for (const m of text.matchAll(re)) {
    out.push([m.index, m.index + m[0].length]);
    if (out.length === MAX_HIGHLIGHTS) break;
  }
  return out;
}

/** The start of the HIT_TEXT_MAX window that holds the most highlights (the first such). */
function densestWindowStart(highlights: [number, number][]): number {
  let best = 0;
  let bestCount = 0;
  let j = 0;
  for (let i = 0; i < highlights.length; i++) {
    const limit = highlights[i]![0] - LEAD + HIT_TEXT_MAX;
    if (j < i) j = i;
    while (j < highlights.length && highlights[j]![1] <= limit) j++;
    if (j - i > bestCount) {
      bestCount = j - i;
      best = highlights[i]![0];
    }
  }
  return Math.max(0, best - LEAD);
}

/** Move `at` forward to the start of a word (at most 40 characters), so a snippet does not open mid-word. */
function wordStart(text: string, at: number): number {
  if (at === 0) return 0;
  for (let i = at; i < Math.min(text.length, at + 40); i++) if (/\s/.test(text[i - 1]!)) return i;
  return at;
}

/**
 * A hit's text: the whole content when it has at most HIT_TEXT_MAX characters, otherwise a snippet
 * of at most HIT_TEXT_MAX characters around the densest run of matches; highlights are offsets
 * into the content, only those inside what the hit carries. Fields ride along while their JSON is
 * at most HIT_FIELDS_MAX characters, so a hit stays bounded whatever the trace holds.
 */
export function hitText(t: StoredTrace, prefixes: string[]): HitText {
  const all = findHighlights(t.content, prefixes);
  const fields = t.fields === undefined ? {} : JSON.stringify(t.fields).length <= HIT_FIELDS_MAX ? { fields: t.fields } : { fields_omitted: true as const };
  if (t.content.length <= HIT_TEXT_MAX) return { content: t.content, highlights: all, content_length: t.content.length, ...fields };
  const start = wordStart(t.content, densestWindowStart(all));
  const end = Math.min(t.content.length, start + HIT_TEXT_MAX);
  return {
    snippet: { text: t.content.slice(start, end), start, end },
    highlights: all.filter(([s, e]) => s >= start && e <= end),
    content_length: t.content.length,
    ...fields,
  };
}
