import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SENTENCE_DIMS } from '../../../../src/search/vectors/sentence-word-vectors.js';
import { decodeWordVectors, encodeWordVectors } from '../../../../src/search/vectors/word-vectors-file.js';

// The real converter (the built child-process entry) and the real encoder, on a small word list.
const dir = mkdtempSync(join(tmpdir(), 'kairos-sentence-convert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const main = join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'search', 'workers', 'build-sentence-word-vectors-main.js');

const WORDS = [
  'doctor',
  'physician',
  'nurse',
  'hospital',
  'bicycle',
  'bike',
  'wheel',
  'coffee',
  'espresso',
  'caffeine',
  'wedding',
  'marriage',
  'bride',
  'jogging',
  'running',
  'workout',
  'tax',
  'invoice',
  'outage',
  'incident',
];

describe('the sentence encoder pass over a word list', () => {
  it('writes one shortened vector per word, row for row, in which related words are near', () => {
    const input = join(dir, 'words.bin');
    const out = join(dir, 'sentence.bin');
    writeFileSync(
      input,
      encodeWordVectors({
        header: { format: 1, dims: 1, count: WORDS.length, source: 'list@1' },
        words: WORDS,
        scales: new Float32Array(WORDS.length).fill(1),
        values: new Int8Array(WORDS.length).fill(1),
      }),
    );
    const run = spawnSync(process.execPath, [main, input, 'enc@test', out], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const wv = decodeWordVectors(readFileSync(out));
    expect(wv.header).toEqual({ format: 1, dims: SENTENCE_DIMS, count: WORDS.length, source: 'enc@test' });
    expect(wv.words).toEqual(WORDS);
    const vec = (w: string) => {
      const r = WORDS.indexOf(w);
      const v = Array.from(wv.values.subarray(r * SENTENCE_DIMS, (r + 1) * SENTENCE_DIMS), (x) => x * wv.scales[r]!);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const cos = (a: string, b: string) => vec(a).reduce((s, x, i) => s + x * vec(b)[i]!, 0);
    for (const [w, near, far] of [
      ['doctor', 'physician', 'bicycle'],
      ['bike', 'bicycle', 'caffeine'],
      ['espresso', 'coffee', 'wedding'],
      ['jogging', 'running', 'invoice'],
      ['wedding', 'marriage', 'invoice'],
      ['nurse', 'hospital', 'espresso'],
    ]) {
      expect(cos(w!, near!), `${w}~${near} vs ${far}`).toBeGreaterThan(cos(w!, far!) + 0.1);
    }
  }, 120_000);

  it('fails with its usage when arguments are missing', () => {
    const run = spawnSync(process.execPath, [main], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/usage: build-sentence-word-vectors-main/);
  });
});
