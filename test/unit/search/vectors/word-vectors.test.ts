import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder, normalize } from '../../../../src/search/models/builtin-embedder.js';
import { wordTokens } from '../../../../src/search/text/tokenize.js';
import { buildWordVectors } from '../../../../src/search/vectors/build-word-vectors.js';
import { decodeWordVectors, encodeWordVectors } from '../../../../src/search/vectors/word-vectors-file.js';

/** A tiny model in the npm package's JSON layout: {words, vectors: {word: [d1..dn, l2norm, rank]}}. */
function winkJson(vocab: Record<string, number[]>): Buffer {
  const words = Object.keys(vocab);
  const vectors = Object.fromEntries(words.map((w, rank) => [w, [...vocab[w]!, 1, rank]]));
  return Buffer.from(
    JSON.stringify({ precision: 8, l2NormIndex: 3, wordIndex: 4, size: words.length, dimensions: 3, words, vectors, unkVector: [0, 0, 0, 0, -1] }),
  );
}

// Frequency order matters (rank = position): frequent words weigh less in a sentence.
const VOCAB: Record<string, number[]> = {
  the: [9, 9, 9],
  ',': [1, 1, 1],
  run: [1, 0, 0],
  jog: [0.9, 0.1, 0],
  gym: [0.8, 0, 0.2],
  workout: [0.85, 0.05, 0.1],
  sister: [0, 1, 0],
  wedding: [0, 0.9, 0.3],
  '2026': [5, 5, 5],
  'e-mail': [0, 0, 1],
  café: [0.1, 0.1, 0.9],
  'he"llo': [0.3, 0.3, 0.3],
  rare: [0, 0.5, 0.5],
};
const model = () => new BuiltinEmbedder(decodeWordVectors(encodeWordVectors(buildWordVectors(winkJson(VOCAB), 'test@1', 12))));
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('word-vector conversion', () => {
  it('keeps plain words below the rank limit, most frequent first, and round-trips through the file', () => {
    const wv = buildWordVectors(winkJson(VOCAB), 'test@1', 12);
    expect(wv.words).toEqual(['the', 'run', 'jog', 'gym', 'workout', 'sister', 'wedding', 'e-mail', 'café']);
    const back = decodeWordVectors(encodeWordVectors(wv));
    expect(back.header).toEqual({ format: 1, dims: 3, count: 9, source: 'test@1' });
    expect(back.words).toEqual(wv.words);
    // int8 with a scale per word: within half a step of the original.
    const jog = back.words.indexOf('jog');
    for (const [d, want] of [0.9, 0.1, 0].entries()) expect(Math.abs(back.values[jog * 3 + d]! * back.scales[jog]! - want)).toBeLessThan(0.01);
  });

  it('parses negative numbers, exponents and escaped keys', () => {
    const json = Buffer.from('{"dimensions":2,"words":["a\\"b","neg"],"vectors":{"a\\"b":[1e-2,-2.5E+1,1,0],"neg":[-0.5,0.25,1,1]},"unkVector":[0,0,0,-1]}');
    const wv = buildWordVectors(json, 'x', 10);
    expect(wv.words).toEqual(['neg']); // "a\"b" is not a plain word
    expect(wv.values[0]! * wv.scales[0]!).toBeCloseTo(-0.5, 2);
    expect(wv.values[1]! * wv.scales[0]!).toBeCloseTo(0.25, 2);
  });

  it('refuses a file that is not one, or is cut short', () => {
    const buf = encodeWordVectors(buildWordVectors(winkJson(VOCAB), 'test@1', 12));
    expect(() => decodeWordVectors(Buffer.from('hello world, not vectors'))).toThrow(/not a kairos word-vector file/);
    expect(() => decodeWordVectors(buf.subarray(0, buf.length - 5))).toThrow(/truncated/);
    expect(() => buildWordVectors(Buffer.from('{"words":[]}'), 'x')).toThrow(/dimensions/);
  });
});

describe('tokens', () => {
  it('drops stop words and bare numbers, keeps the stem of possessives', () => {
    expect(wordTokens("The sister's wedding in 2026, and my e-mail to Café Ünter")).toEqual(['sister', 'wedding', 'e-mail', 'café', 'ünter']);
    expect(wordTokens('  ')).toEqual([]);
  });
});

describe('built-in sentence vectors', () => {
  it('are unit vectors; a text without a known content word has none', () => {
    const m = model();
    const v = m.embed('a gym workout')!;
    expect(cos(v, v)).toBeCloseTo(1, 5);
    expect(m.embed('the and of')).toBeNull();
    expect(m.embed('zzzqqq xyzzy')).toBeNull();
  });

  it('put sentences of similar words close together: "workout" is nearer "gym" than "wedding"', () => {
    const m = model();
    const q = m.embed('workout')!;
    expect(cos(q, m.embed('went to the gym')!)).toBeGreaterThan(cos(q, m.embed("my sister's wedding")!));
  });

  it('weigh rare words above frequent ones', () => {
    const m = model();
    // "run" (rank 1) and "wedding" (rank 6) in one sentence: the sentence leans to the rarer word.
    const v = m.embed('run wedding')!;
    expect(cos(v, m.embed('wedding')!)).toBeGreaterThan(cos(v, m.embed('run')!));
  });

  it('fall back to the parts of an unknown compound', () => {
    const m = model();
    expect(m.rows('gym-run')).toHaveLength(2);
    expect(m.rows('e-mail')).toHaveLength(1);
  });

  it('normalize leaves the zero vector out', () => {
    expect(normalize(new Float32Array(3))).toBeNull();
    expect(Array.from(normalize(Float32Array.from([3, 4]))!)).toEqual([0.6000000238418579, 0.800000011920929]);
  });
});
