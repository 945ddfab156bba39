import { describe, expect, it } from 'vitest';
import { topK } from '../../../src/platform/top-k.js';

describe('topK', () => {
  it('equals sort + slice for any k, duplicates included', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) % 50;
    const xs = Array.from({ length: 500 }, rnd);
    for (const k of [0, 1, 5, 50, 499, 500, 800]) expect(topK(xs, k, (a, b) => a - b)).toEqual([...xs].sort((a, b) => a - b).slice(0, k));
  });
});
