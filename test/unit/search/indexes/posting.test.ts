import { describe, expect, it } from 'vitest';
import { POSTING_CHUNK, Posting } from '../../../../src/search/indexes/posting.js';

/** Every entry of a posting, in the order given. */
function entries(p: Posting): [number, number][] {
  const out: [number, number][] = [];
  p.forEachPart((slots, tfs, n) => {
    for (let i = 0; i < n; i++) out.push([slots[i]!, tfs[i]!]);
  });
  return out;
}

describe('Posting', () => {
  it('gives back every entry in order, across its pairs of arrays', () => {
    for (const n of [0, 1, 2, 3, POSTING_CHUNK - 1, POSTING_CHUNK, POSTING_CHUNK + 1, 5 * POSTING_CHUNK + 17]) {
      const p = new Posting();
      const want: [number, number][] = [];
      for (let i = 0; i < n; i++) {
        p.add(i * 3, i / 4);
        want.push([i * 3, i / 4]);
      }
      expect(entries(p)).toEqual(want);
      expect(p.live).toBe(n);
    }
  });

  it('never copies a full pair of arrays: a long posting allocates about its own size', () => {
    const p = new Posting();
    for (let i = 0; i < POSTING_CHUNK; i++) p.add(i, 1);
    const first = p.slots;
    for (let i = 0; i < 10 * POSTING_CHUNK; i++) p.add(i, 1);
    // The first full pair is the very array it was, set aside (growing by copying replaced it).
    expect(p.fullSlots?.[0]).toBe(first);
    const held = (p.fullSlots ?? []).reduce((n, a) => n + a.length, 0) + p.slots.length;
    expect(held).toBe(11 * POSTING_CHUNK);
  });
});
