import type { SummaryItem } from '../../contracts/export.js';
import type { StoredTrace } from '../../contracts/memory.js';
import { fitTokens, type loadTokenizer, MIN_USEFUL_TOKENS, summarizeTrace } from '../memory/summarize.js';
import { compressText } from './compress.js';

type Tokenizer = Awaited<ReturnType<typeof loadTokenizer>>;

/**
 * The compressed text of a trace: the memory area's one-line summary (tempo tag and high
 * importance marked, cut at a word boundary) of the trace's words with filler dropped.
 */
export function exportSummaryText(t: StoredTrace, includeFeedback: boolean): string {
  return summarizeTrace({
    content: compressText(t.content),
    tempo_tag: t.tempo_tag,
    importance: t.importance,
    notes: includeFeedback && t.notes ? compressText(t.notes) : undefined,
  });
}

export interface SummaryPage {
  items: SummaryItem[];
  token_count: number;
  truncated: boolean;
}

/**
 * Summary items of `candidates`, in their order, while their tokens fit `maxTokens` (each
 * summary counted on its own with o200k). The first one that does not fit is shortened when
 * enough budget is left for it to say something; the page ends there.
 */
export function summarize(tk: Tokenizer, candidates: readonly StoredTrace[], opts: { maxTokens?: number; includeFeedback: boolean }): SummaryPage {
  let left = opts.maxTokens ?? Infinity;
  let total = 0;
  const items: SummaryItem[] = [];
  let truncated = false;
  for (const t of candidates) {
    const fit = fitTokens(tk, exportSummaryText(t, opts.includeFeedback), left);
    if (fit.shortened && (left < MIN_USEFUL_TOKENS || !fit.text)) {
      truncated = true;
      break;
    }
    items.push({
      uid: t.uid,
      type: t.type,
      task_id: t.task_id,
      timestamp: t.timestamp,
      summary: fit.text,
      ...(opts.includeFeedback && t.feedback_rating !== undefined ? { feedback_rating: t.feedback_rating } : {}),
    });
    left -= fit.tokens;
    total += fit.tokens;
    if (fit.shortened) {
      truncated = true;
      break;
    }
  }
  return { items, token_count: total, truncated };
}
