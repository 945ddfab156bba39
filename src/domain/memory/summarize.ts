import type { StoredTrace } from '../../contracts/memory.js';

type Tokenizer = typeof import('gpt-tokenizer/encoding/o200k_base');
let tokenizer: Promise<Tokenizer> | undefined;

/** The o200k BPE tokenizer, loaded on first use: its ranks take most of a second to load. */
export function loadTokenizer(): Promise<Tokenizer> {
  tokenizer ??= import('gpt-tokenizer/encoding/o200k_base');
  return tokenizer;
}

/** Longest summary made from a trace, in characters, before any token budget applies. */
const MAX_CHARS = 280;

/**
 * A compressed, single-line form of a trace for grounding a model: the content with whitespace
 * collapsed, cut at a word boundary, with the tempo tag and importance when they carry meaning.
 */
export function summarizeTrace(t: Pick<StoredTrace, 'content' | 'tempo_tag' | 'importance' | 'notes'>): string {
  let text = t.content.replace(/\s+/g, ' ').trim();
  if (t.notes) text += ` (note: ${t.notes.replace(/\s+/g, ' ').trim()})`;
  if (text.length > MAX_CHARS) {
    const cut = text.slice(0, MAX_CHARS - 1);
    const space = cut.lastIndexOf(' ');
    text = `${(space > MAX_CHARS * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
  }
  const marks = [t.tempo_tag, t.importance !== undefined && t.importance >= 4 ? `!${t.importance}` : undefined].filter(Boolean);
  return marks.length ? `[${marks.join(' ')}] ${text}` : text;
}

export interface Fitted {
  text: string;
  tokens: number;
  shortened: boolean;
}

/** Count the text's tokens and, when over `budget`, cut it to fit (ending in "…"). */
export function fitTokens(tk: Tokenizer, text: string, budget = Infinity): Fitted {
  const ids = tk.encode(text);
  if (ids.length <= budget) return { text, tokens: ids.length, shortened: false };
  const ellipsis = tk.encode('…').length;
  let keep = Math.max(0, budget - ellipsis);
  // Decoding a prefix can split a multi-byte character or merge differently; shrink until it fits.
  for (; keep > 0; keep--) {
    const candidate = `${tk
      .decode(ids.slice(0, keep))
      .replace(/\uFFFD+$/, '')
      .trimEnd()}…`;
    const n = tk.encode(candidate).length;
    if (n <= budget) return { text: candidate, tokens: n, shortened: true };
  }
  return { text: '', tokens: 0, shortened: true };
}

/** Below this many tokens left, a shortened summary says too little to be worth including. */
export const MIN_USEFUL_TOKENS = 8;
