import { describe, expect, it } from 'vitest';
import { SlotTerms, type Terms } from '../../../../src/search/indexes/slot-terms.js';

/** Slot `i`'s terms: 0 to 20 of them (a few slots far longer), all derived from `i`. */
function termsOf(i: number): Terms {
  const n = i % 997 === 500 ? 100_000 : (i * 7) % 21;
  const ids = new Uint32Array(n);
  const tfs = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    ids[k] = (i * 31 + k * 17) >>> 0;
    tfs[k] = (k + 1) / (i + 1);
  }
  return { ids, tfs };
}

describe('SlotTerms', () => {
  it('gives back every slot its terms across chunks, a slot longer than a chunk included', () => {
    const terms = new SlotTerms();
    const slots = 30_000;
    for (let i = 0; i < slots; i++) expect(terms.push(termsOf(i))).toBe(i);
    expect(terms.chunks).toBeGreaterThan(3);
    const wrong: number[] = [];
    for (let i = 0; i < slots; i++) {
      const want = termsOf(i);
      const got = terms.get(i);
      const same = got.ids.length === want.ids.length && got.ids.every((id, k) => id === want.ids[k] && got.tfs[k] === want.tfs[k]);
      if (!same || !terms.equals(i, want) || (want.ids.length > 0 && terms.equals(i, termsOf(i + 1)))) wrong.push(i);
    }
    expect(wrong).toEqual([]);
  });

  it('grows without copying the terms it holds once a chunk is full', () => {
    const terms = new SlotTerms();
    let i = 0;
    while (terms.chunks < 2) terms.push(termsOf(i++ % 400));
    const first = terms.get(0).ids.buffer;
    // Ten chunks more: an array that held everything was copied whole at each growth.
    while (terms.chunks < 12) terms.push(termsOf(i++ % 400));
    expect(terms.get(0).ids.buffer).toBe(first);
  });
});
