import { stripAccents, wordTokens } from '../text/tokenize.js';
import { assertAligned } from '../vectors/sentence-word-vectors.js';
import type { WordVectors } from '../vectors/word-vectors-file.js';

/**
 * Smooth inverse frequency (Arora et al., "A simple but tough-to-beat baseline for sentence
 * embeddings", 2017): a word's weight is a / (a + p(word)). The vocabulary is ordered by corpus
 * frequency, so p is estimated from the rank with Zipf's law, p(rank) ≈ ZIPF / (rank + 1); this
 * keeps every sentence vector independent of the rest of the user's memory, so it is computed
 * once per write and never again.
 */
const SIF_A = 1e-3;
const TOKEN_CACHE = 200_000;
const ZIPF = 0.06;

/**
 * Sentence vectors from the built-in word vectors: the SIF-weighted mean of the vectors of the
 * text's content words, unit length. Deterministic, offline, about a microsecond per word.
 *
 * With a second table (the sentence encoder's vectors of the same words, vectors/sentence-word-vectors.ts)
 * the text is pooled in both spaces and the two unit means are joined, each scaled by √½, so the
 * cosine of two texts is the mean of their cosines in the two spaces: an ensemble of two models
 * trained on different data and objectives (skip-gram on news; the Universal Sentence Encoder on
 * paraphrase and question–answer pairs), which agree on what is related more often than they err
 * together.
 */
export class BuiltinEmbedder {
  readonly dims: number;
  readonly model: string;
  /** Word → row, built at the first embedding: a daemon embeds on its embedding thread, whose table this is not. */
  private indexOf?: Map<string, number>;
  private readonly weights: Float32Array;

  constructor(
    private readonly wv: WordVectors,
    private readonly sentence?: WordVectors,
  ) {
    if (sentence) assertAligned(wv, sentence);
    this.dims = wv.header.dims + (sentence?.header.dims ?? 0);
    this.model = sentence ? `${wv.header.source}+${sentence.header.source}` : wv.header.source;
    this.weights = new Float32Array(wv.words.length);
    for (let r = 0; r < wv.words.length; r++) this.weights[r] = SIF_A / (SIF_A + ZIPF / (r + 1));
  }

  /** Vocabulary rows of the text's known words (a compound falls back to its parts). */
  rows(text: string): number[] {
    const rows: number[] = [];
    for (const t of wordTokens(text)) {
      let known = this.tokenRows.get(t);
      if (!known) {
        known = this.resolve(t);
        // Bounded: a memory's vocabulary is far smaller, but nothing grows without limit.
        if (this.tokenRows.size >= TOKEN_CACHE) this.tokenRows.clear();
        this.tokenRows.set(t, known);
      }
      for (const r of known) rows.push(r);
    }
    return rows;
  }

  /** A vocabulary row's SIF weight. */
  weight(row: number): number {
    return this.weights[row]!;
  }

  /** Token → rows, cached: resolving (accents, compounds) costs more than the pooling itself. */
  private readonly tokenRows = new Map<string, number[]>();

  private resolve(t: string): number[] {
    const r = this.lookup(t);
    if (r !== undefined) return [r];
    if (!/[-.]/.test(t)) return [];
    return t.split(/[-.]/).flatMap((part) => {
      const p = part ? this.lookup(part) : undefined;
      return p === undefined ? [] : [p];
    });
  }

  private lookup(t: string): number | undefined {
    if (!this.indexOf) {
      this.indexOf = new Map();
      this.wv.words.forEach((w, i) => this.indexOf!.set(w, i));
    }
    return this.indexOf.get(t) ?? this.indexOf.get(stripAccents(t));
  }

  /** The tables it embeds with (for a thread that embeds with the same ones: see workers/embed-worker.ts). */
  get tables(): { words: WordVectors; sentence?: WordVectors } {
    return { words: this.wv, sentence: this.sentence };
  }

  /** The unit sentence vector of a text, or null when it has no known content word. */
  embed(text: string): Float32Array | null {
    const pieces = this.embedInPieces(text, Number.POSITIVE_INFINITY);
    for (;;) {
      const step = pieces.next();
      if (step.done) return step.value;
    }
  }

  /**
   * embed, a piece of the text at a time: it yields after each piece of about `pieceChars`, so a
   * thread embedding a long text can answer a query in between. The pieces are cut at white
   * space, where no word is, and pooled into the same sums in the same order: the vector is
   * embed's, bit for bit.
   */
  *embedInPieces(text: string, pieceChars = PIECE_CHARS): Generator<void, Float32Array | null> {
    const wordDims = this.wv.header.dims;
    const out = new Float32Array(this.dims);
    let known = false;
    for (const piece of pieces(text, pieceChars)) {
      const rows = this.rows(piece);
      if (rows.length) {
        known = true;
        this.sum(this.wv, rows, out.subarray(0, wordDims));
        if (this.sentence) this.sum(this.sentence, rows, out.subarray(wordDims));
      }
      yield;
    }
    if (!known) return null;
    // Each table's mean counts alike: unit length each, then the whole.
    normalize(out.subarray(0, wordDims));
    if (this.sentence) normalize(out.subarray(wordDims));
    return normalize(out);
  }

  /** Add the SIF-weighted vectors of the rows of one table into `out`. */
  private sum(table: WordVectors, rows: number[], out: Float32Array): void {
    const { values, scales } = table;
    const dims = table.header.dims;
    for (const r of rows) {
      const w = this.weights[r]! * scales[r]!;
      const base = r * dims;
      for (let d = 0; d < dims; d++) out[d]! += w * values[base + d]!;
    }
  }
}

/** Characters per piece of embedInPieces: a few ms of the embedding thread's work. */
const PIECE_CHARS = 8_000;

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/** The text in pieces of about `size` characters, each cut at white space (or at `size` inside a word longer than that). */
function* pieces(text: string, size: number): Generator<string> {
  let at = 0;
  while (text.length - at > size) {
    let end = at + size;
    while (end > at && !isSpace(text.charCodeAt(end))) end--;
    if (end === at) end = at + size;
    yield text.slice(at, end);
    at = end;
  }
  yield at ? text.slice(at) : text;
}

/** Scale a vector to unit length in place; null for the zero vector. */
export function normalize(v: Float32Array): Float32Array | null {
  let sum = 0;
  for (let d = 0; d < v.length; d++) sum += v[d]! * v[d]!;
  if (!(sum > 0)) return null;
  const inv = 1 / Math.sqrt(sum);
  for (let d = 0; d < v.length; d++) v[d]! *= inv;
  return v;
}
