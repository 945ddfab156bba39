import { describe, expect, it } from 'vitest';
import { HashedMap } from '../../../src/platform/hashed-map.js';
import { prng } from '../../helpers/fuzz-gen.js';

describe('HashedMap', () => {
  it('behaves as a Map (values, size, keys) through random sets and deletes', () => {
    const r = prng(28);
    const hm = new HashedMap<number>();
    const map = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const k = `tr_${Math.floor(r() * 30_000)}`;
      if (r() < 0.7) {
        hm.set(k, i);
        map.set(k, i);
      } else expect(hm.delete(k)).toBe(map.delete(k));
      if (i % 5000 === 0) expect(hm.size).toBe(map.size);
    }
    for (let i = 0; i < 30_000; i++) {
      const k = `tr_${i}`;
      expect(hm.get(k)).toBe(map.get(k));
      expect(hm.has(k)).toBe(map.has(k));
    }
    expect([...hm.keys()].sort()).toEqual([...map.keys()].sort());
    for (const k of [...map.keys()]) hm.delete(k);
    expect(hm.size).toBe(0);
    expect([...hm.keys()]).toEqual([]);
  });

  it('spreads uids over its parts, so no growth rehashes more than a small share of them', () => {
    const hm = new HashedMap<number>();
    for (let i = 0; i < 64_000; i++) hm.set(`tr_01kdvdna${i.toString(36).padStart(8, '0')}`, i);
    // One part per 64: none holds more than twice its share.
    const sizes = (hm as unknown as { parts: Map<string, number>[] }).parts.map((p) => p.size);
    expect(Math.max(...sizes)).toBeLessThan(2000);
    expect(Math.min(...sizes)).toBeGreaterThan(500);
  });
});
