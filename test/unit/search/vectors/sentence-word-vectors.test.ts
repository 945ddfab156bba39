import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder } from '../../../../src/search/models/builtin-embedder.js';
import { assertAligned, principalAxes, projectWords } from '../../../../src/search/vectors/sentence-word-vectors.js';
import type { WordVectors } from '../../../../src/search/vectors/word-vectors-file.js';

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * b[i]!, 0);
const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));

/** A compact table of plain float vectors (int8 with a scale per word, like the real files). */
function table(source: string, rows: Record<string, number[]>): WordVectors {
  const words = Object.keys(rows);
  const dims = rows[words[0]!]!.length;
  const scales = new Float32Array(words.length);
  const values = new Int8Array(words.length * dims);
  words.forEach((w, r) => {
    const v = rows[w]!;
    const scale = Math.max(...v.map(Math.abs)) / 127 || 1;
    scales[r] = scale;
    v.forEach((x, d) => (values[r * dims + d] = Math.round(x / scale)));
  });
  return { header: { format: 1, dims, count: words.length, source }, words, scales, values };
}

describe('shortening the sentence encoder vectors', () => {
  // Points spread along (1,1,0,0) and (0,0,1,-1) with a little noise on the other axes.
  const rows = [
    [3, 3, 0.1, 0.1],
    [-2, -2, 0, 0.1],
    [0, 0.1, 1, -1],
    [0.1, 0, -1.5, 1.5],
    [2.5, 2.5, 0.5, -0.5],
    [0, 0, 0.05, 0],
  ];
  const flat = Float32Array.from(rows.flat());

  it('finds the strongest axes first, unit length and orthogonal', () => {
    const [a, b] = principalAxes(flat, 4, 2);
    expect(Math.abs(dot(a!, unit([1, 1, 0, 0])))).toBeGreaterThan(0.99);
    expect(Math.abs(dot(b!, unit([0, 0, 1, -1])))).toBeGreaterThan(0.99);
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
    expect(dot(a!, b!)).toBeCloseTo(0, 6);
  });

  it('keeps the similarities of the words it projects', () => {
    const axes = principalAxes(flat, 4, 2);
    const wv = projectWords(['a', 'b', 'c', 'd', 'e', 'f'], flat, 4, axes, 'enc@1');
    expect(wv.header).toEqual({ format: 1, dims: 2, count: 6, source: 'enc@1' });
    const back = (r: number) => [0, 1].map((j) => wv.values[r * 2 + j]! * wv.scales[r]!);
    for (const [i, j] of [
      [0, 1],
      [0, 4],
      [2, 3],
      [0, 2],
    ] as const) {
      expect(dot(back(i), back(j))).toBeCloseTo(dot(rows[i]!, rows[j]!), 0);
    }
  });

  it('refuses a table made for another word list', () => {
    const words = table('w@1', { gym: [1, 0], run: [0, 1] });
    expect(() => assertAligned(words, table('enc@1', { gym: [1, 0, 0], run: [0, 1, 0] }))).not.toThrow();
    expect(() => assertAligned(words, table('enc@1', { run: [1, 0, 0], gym: [0, 1, 0] }))).toThrow(/another word list/);
    expect(() => assertAligned(words, table('enc@1', { gym: [1, 0, 0] }))).toThrow(/another word list/);
    expect(() => new BuiltinEmbedder(words, table('enc@1', { gym: [1, 0, 0] }))).toThrow(/another word list/);
  });
});

describe('the two-model sentence vector', () => {
  // The two spaces disagree on purpose: in the first "gym" is like "run", in the second like "doctor".
  const words = table('w@1', { gym: [1, 0, 0], run: [0.9, 0.1, 0], doctor: [0, 0, 1] });
  const encoder = table('enc@1', { gym: [0, 1], run: [1, 0], doctor: [0.1, 1] });
  const both = new BuiltinEmbedder(words, encoder);
  const first = new BuiltinEmbedder(words);
  const second = new BuiltinEmbedder(table('w@1', { gym: [0, 1], run: [1, 0], doctor: [0.1, 1] }));

  it('is unit length, as wide as both tables, and named after both models', () => {
    const v = both.embed('gym run')!;
    expect(v.length).toBe(5);
    expect(dot(v, v)).toBeCloseTo(1, 5);
    expect(both.model).toBe('w@1+enc@1');
    expect(both.dims).toBe(5);
  });

  it('scores two texts by the mean of their cosines in the two spaces', () => {
    for (const [x, y] of [
      ['gym', 'run'],
      ['gym', 'doctor'],
      ['run', 'doctor gym'],
    ]) {
      const mean = (dot(first.embed(x)!, first.embed(y)!) + dot(second.embed(x)!, second.embed(y)!)) / 2;
      expect(dot(both.embed(x)!, both.embed(y)!)).toBeCloseTo(mean, 2);
    }
  });
});
