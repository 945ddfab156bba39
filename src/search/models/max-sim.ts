import type { WordVectors } from '../vectors/word-vectors-file.js';
import type { BuiltinEmbedder } from './builtin-embedder.js';

/**
 * Characters of a trace's text that max-sim reads: enough for any note or dialogue turn. In a
 * long text nearly every query word finds some close word by chance, and reading all of a
 * 95,000-character trace would cost more than the scan it refines.
 */
export const MAX_SIM_CHARS = 2_000;

/**
 * Late interaction on the built-in word vectors (ColBERT's MaxSim, Khattab and Zaharia 2020, on
 * static word vectors): each query word is matched to the closest word of the text, and the
 * text scores the weighted mean of those best cosines, each query word weighing its SIF weight.
 * A pooled sentence vector averages a turn's words into one direction, so "pottery" in a
 * question barely moves towards a turn that says "ceramics" among a dozen other words; matched
 * word by word, it meets "ceramics" whole. The cosine of two words is the mean of their cosines
 * in the embedder's two tables, as it is for two sentence vectors.
 */
export class MaxSim {
  private readonly tables: WordVectors[];
  /** Each word's length in each table (its int8 components: the scale cancels in a cosine), computed when first needed. */
  private readonly norms: Float32Array[];

  constructor(readonly embedder: BuiltinEmbedder) {
    const { words, sentence } = embedder.tables;
    this.tables = sentence ? [words, sentence] : [words];
    this.norms = this.tables.map(() => new Float32Array(words.words.length).fill(-1));
  }

  /** The max-sim score of each text against the query, in [0, 1] (0 for a query or text without a known word). */
  scores(query: string, texts: string[]): Float32Array<ArrayBuffer> {
    const q = this.embedder.rows(query);
    const out = new Float32Array(texts.length);
    if (!q.length) return out;
    let total = 0;
    for (const r of q) total += this.embedder.weight(r);
    // Each word's cosines to the query words, once per call: the texts of one query share many words.
    const seen = new Map<number, Float32Array>();
    const best = new Float32Array(q.length);
    texts.forEach((text, i) => {
      best.fill(0);
      for (const r of this.embedder.rows(text.slice(0, MAX_SIM_CHARS))) {
        let cos = seen.get(r);
        if (!cos) seen.set(r, (cos = Float32Array.from(q, (qr) => this.cosine(qr, r))));
        for (let j = 0; j < q.length; j++) if (cos[j]! > best[j]!) best[j] = cos[j]!;
      }
      let sum = 0;
      for (let j = 0; j < q.length; j++) sum += this.embedder.weight(q[j]!) * best[j]!;
      out[i] = sum / total;
    });
    return out;
  }

  /** The cosine of two vocabulary words: the mean of their cosines in each table. */
  private cosine(a: number, b: number): number {
    let sum = 0;
    for (let i = 0; i < this.tables.length; i++) {
      const t = this.tables[i]!;
      sum += dot(t, a, b) / (this.norm(i, a) * this.norm(i, b) || 1);
    }
    return sum / this.tables.length;
  }

  private norm(i: number, r: number): number {
    const norms = this.norms[i]!;
    if (norms[r]! < 0) norms[r] = Math.sqrt(dot(this.tables[i]!, r, r));
    return norms[r]!;
  }
}

function dot(t: WordVectors, a: number, b: number): number {
  const dims = t.header.dims;
  const { values } = t;
  let s = 0;
  for (let d = 0, x = a * dims, y = b * dims; d < dims; d++) s += values[x + d]! * values[y + d]!;
  return s;
}
