import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { WordVectors } from './word-vectors-file.js';

/**
 * Components kept of the sentence encoder's 512: the leading axes of its word vectors hold nearly
 * all of their similarity structure (recall on the evaluation set is the same at 128 and 512), at a
 * quarter of the memory per trace.
 */
export const SENTENCE_DIMS = 128;

/** Width of the encoder's own vectors (Universal Sentence Encoder lite). */
export const ENCODER_DIMS = 512;

/**
 * The leading `k` principal axes of the rows of `vectors` (n × dim, row-major), uncentred: a
 * truncated SVD, the usual way to shorten embeddings without losing the directions that
 * similarity rests on. Unit length, strongest first.
 */
export function principalAxes(vectors: Float32Array, dim: number, k: number): Float64Array[] {
  const n = vectors.length / dim;
  const moment = new Float64Array(dim * dim);
  const row = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    for (let d = 0; d < dim; d++) row[d] = vectors[r * dim + d]!;
    for (let a = 0; a < dim; a++) {
      const x = row[a]!;
      if (x === 0) continue;
      const base = a * dim;
      for (let b = a; b < dim; b++) moment[base + b]! += x * row[b]!;
    }
  }
  const m = new Matrix(dim, dim);
  for (let a = 0; a < dim; a++) {
    for (let b = a; b < dim; b++) {
      m.set(a, b, moment[a * dim + b]!);
      m.set(b, a, moment[a * dim + b]!);
    }
  }
  const evd = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const values = evd.realEigenvalues;
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => y[0] - x[0]);
  const vecs = evd.eigenvectorMatrix;
  return order.slice(0, k).map(([, i]) => Float64Array.from(vecs.getColumn(i)));
}

/** Project each row onto the axes and store it the compact way (int8 with a scale per word). */
export function projectWords(words: string[], vectors: Float32Array, dim: number, axes: Float64Array[], source: string): WordVectors {
  const k = axes.length;
  const scales = new Float32Array(words.length);
  const values = new Int8Array(words.length * k);
  const p = new Float64Array(k);
  for (let r = 0; r < words.length; r++) {
    let max = 0;
    for (let j = 0; j < k; j++) {
      const axis = axes[j]!;
      let s = 0;
      for (let d = 0; d < dim; d++) s += vectors[r * dim + d]! * axis[d]!;
      p[j] = s;
      max = Math.max(max, Math.abs(s));
    }
    const scale = max / 127 || 1;
    scales[r] = scale;
    for (let j = 0; j < k; j++) values[r * k + j] = Math.round(p[j]! / scale);
  }
  return { header: { format: 1, dims: k, count: words.length, source }, words, scales, values };
}

/**
 * Sentence-encoder word vectors belong to one word list: row r must be the same word as row r of
 * the word vectors they are pooled with. Throws when they are not (another build of either).
 */
export function assertAligned(base: WordVectors, sentence: WordVectors): void {
  const a = base.words;
  const b = sentence.words;
  if (a.length !== b.length || a.some((w, i) => w !== b[i])) throw new Error('sentence word vectors were made for another word list');
}
