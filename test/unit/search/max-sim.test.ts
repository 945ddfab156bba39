import { describe, expect, it } from 'vitest';
import { blendMaxSim, MAX_SIM_WEIGHT } from '../../../src/search/max-sim-rerank.js';
import { BuiltinEmbedder } from '../../../src/search/models/builtin-embedder.js';
import { MAX_SIM_CHARS, MaxSim } from '../../../src/search/models/max-sim.js';
import type { WordVectors } from '../../../src/search/vectors/word-vectors-file.js';

/** A tiny vocabulary: "ceramics" is near "pottery", the rest point elsewhere. */
function embedder(): BuiltinEmbedder {
  const vocab: [string, number[]][] = [
    ['pottery', [1, 0, 0]],
    ['ceramics', [0.9, 0.1, 0]],
    ['drive', [0, 1, 0]],
    ['weather', [0, 1, 0]],
    ['traffic', [0, 0.9, 0.1]],
    ['museum', [0.3, 0, 1]],
  ];
  const wv: WordVectors = {
    header: { format: 1, dims: 3, count: vocab.length, source: 'test@1' },
    words: vocab.map(([w]) => w),
    scales: new Float32Array(vocab.length).fill(1 / 100),
    values: Int8Array.from(vocab.flatMap(([, v]) => v.map((x) => Math.round(x * 100)))),
  };
  return new BuiltinEmbedder(wv);
}

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('max-sim: each query word against the closest word of a text', () => {
  const e = embedder();
  const ms = new MaxSim(e);

  it('gives a word its closest match whole, however many other words the text has', () => {
    const text = 'drive weather traffic drive weather ceramics traffic';
    const [diluted, museum] = ms.scores('pottery', [text, 'museum']);
    // Pooled, the text is mostly about driving and further from the query than "museum"…
    expect(cos(e.embed('pottery')!, e.embed(text)!)).toBeLessThan(cos(e.embed('pottery')!, e.embed('museum')!));
    // …word by word, "ceramics" meets "pottery".
    expect(diluted).toBeGreaterThan(0.99);
    expect(museum).toBeCloseTo(0.3 / Math.hypot(0.3, 1), 2);
  });

  it('scores 0 for a query or a text without a known word, and reads only the first MAX_SIM_CHARS of a text', () => {
    expect([...ms.scores('zzz', ['pottery'])]).toEqual([0]);
    expect([...ms.scores('pottery', ['', 'zzz'])]).toEqual([0, 0]);
    const late = `${'weather '.repeat(MAX_SIM_CHARS / 8)}pottery`;
    expect(ms.scores('pottery', [late])[0]).toBeLessThan(0.5);
  });
});

describe('blending max-sim into the scan', () => {
  const hits = [
    { uid: 'a', score: 0.6 },
    { uid: 'b', score: 0.5 },
    { uid: 'c', score: 0.4 },
    { uid: 'd', score: 0.35 },
  ];

  it('reorders the rescored head and keeps every other hit below it, in its order', () => {
    const { hits: out, rescore } = blendMaxSim(hits, Float32Array.from([0, 1]));
    const w = MAX_SIM_WEIGHT;
    expect(out.map((h) => h.uid)).toEqual(['b', 'a', 'c', 'd']);
    expect(out[0]!.score).toBeCloseTo((1 - w) * 0.5 + w);
    const floor = (1 - w) * 0.6;
    expect(out[2]!.score).toBeCloseTo(Math.min(0.4, floor));
    expect(out[2]!.score - out[3]!.score).toBeCloseTo(0.05);
    expect(rescore('b', 0.5)).toBe(out[0]!.score);
    expect(rescore('d', 0.35)).toBeCloseTo(out[3]!.score);
  });

  it('leaves the hits as they are without scores', () => {
    expect(blendMaxSim(hits, new Float32Array(0)).hits).toEqual(hits);
  });
});
