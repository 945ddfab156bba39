/**
 * Extractive compression for token-efficient summaries: the trace's own words in their order,
 * minus words that carry no meaning for a model (articles, fillers, empty intensifiers). Nothing
 * is reworded or added, so a summary never says what the trace does not.
 */

/** Dropped anywhere: they never change what a sentence states. */
const FILLERS = new Set(['um', 'umm', 'uh', 'uhm', 'erm', 'er', 'hmm', 'basically', 'literally', 'actually', 'honestly', 'kinda', 'sorta']);
/** Dropped unless a negation precedes them: "not very good" must not become "not good". */
const INTENSIFIERS = new Set(['very', 'really', 'totally', 'quite', 'extremely', 'super', 'absolutely', 'simply']);
/** Articles: dropped in lowercase, or capitalized at the start of a sentence ("Plan A" keeps its A). */
const ARTICLES = new Set(['a', 'an', 'the']);
const NEGATIONS = /^(not|no|never|nothing|hardly|barely|isn't|wasn't|aren't|weren't|don't|doesn't|didn't|won't|can't|couldn't|shouldn't|wouldn't|cannot)$/i;

const LEADING = /^[("'“‘[]+/;
const TRAILING = /[)"'”’\].,;:!?…]+$/;

export function compressText(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const kept: string[] = [];
  let sentenceStart = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const lead = LEADING.exec(w)?.[0] ?? '';
    const trail = TRAILING.exec(w.slice(lead.length))?.[0] ?? '';
    const core = w.slice(lead.length, w.length - trail.length);
    const lower = core.toLowerCase();
    const prev = kept.at(-1);
    const prevCore = prev?.replace(LEADING, '').replace(TRAILING, '');
    const drop =
      core.length > 0 &&
      !lead &&
      (FILLERS.has(lower) ||
        (INTENSIFIERS.has(lower) && !(prevCore && NEGATIONS.test(prevCore))) ||
        // An article needs a word after it, or it is a name ("vitamin A", "option a").
        (ARTICLES.has(lower) && i + 1 < words.length && !trail && (core === lower || sentenceStart)));
    if (drop) {
      // Keep the punctuation the dropped word carried, unless the previous word has its own.
      if (trail && prev !== undefined && !TRAILING.test(prev)) kept[kept.length - 1] = prev + trail;
    } else kept.push(w);
    if (!drop || trail) sentenceStart = /[.!?…]$/.test(w);
  }
  const out = kept.join(' ');
  // A note made only of filler ("um") keeps its words rather than vanishing.
  return out || text.replace(/\s+/g, ' ').trim();
}
