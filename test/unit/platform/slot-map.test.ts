import { describe, expect, it } from 'vitest';
import { SlotMap } from '../../../src/platform/slot-map.js';
import { prng } from '../../helpers/fuzz-gen.js';

type Item = { key: string; n: number };

describe('SlotMap', () => {
  it('behaves as a Map (values, size, keys) through random sets and deletes', () => {
    const r = prng(28);
    const sm = new SlotMap<Item>((v) => v.key);
    const map = new Map<string, Item>();
    for (let i = 0; i < 200_000; i++) {
      const k = `tr_${Math.floor(r() * 100_000)}`;
      if (r() < 0.7) {
        const v = { key: k, n: i };
        sm.set(k, v);
        map.set(k, v);
      } else expect(sm.delete(k)).toBe(map.delete(k));
      if (i % 5000 === 0) expect(sm.size).toBe(map.size);
    }
    for (let i = 0; i < 100_000; i++) {
      const k = `tr_${i}`;
      expect(sm.get(k)).toBe(map.get(k));
      expect(sm.has(k)).toBe(map.has(k));
    }
    expect([...sm.keys()].sort()).toEqual([...map.keys()].sort());
    for (const k of [...map.keys()]) sm.delete(k);
    expect(sm.size).toBe(0);
    expect([...sm.keys()]).toEqual([]);
  });

  it('reuses the slots of deleted keys, so churn does not grow it', () => {
    const sm = new SlotMap<Item>((v) => v.key);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 10_000; i++) sm.set(`r${round}_${i}`, { key: `r${round}_${i}`, n: i });
      for (let i = 0; i < 10_000; i++) sm.delete(`r${round}_${i}`);
    }
    expect(sm.size).toBe(0);
    expect((sm as unknown as { next: number }).next).toBe(10_000);
  });
});
