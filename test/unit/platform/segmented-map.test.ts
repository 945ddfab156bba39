import { describe, expect, it } from 'vitest';
import { SegmentedMap } from '../../../src/platform/segmented-map.js';

/** Deterministic, so a failure replays. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('SegmentedMap', () => {
  it('behaves as a Map (values, order, size) through random sets and deletes across many segments', () => {
    const r = rng(17);
    const seg = new SegmentedMap<string, number>();
    const map = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const k = `k${Math.floor(r() * 30_000)}`;
      if (r() < 0.7) {
        seg.set(k, i);
        map.set(k, i);
      } else expect(seg.delete(k)).toBe(map.delete(k));
      if (i % 5000 === 0) {
        expect(seg.size).toBe(map.size);
        expect(seg.valuesArray()).toEqual([...map.values()]);
      }
    }
    expect([...seg.entries()]).toEqual([...map.entries()]);
    for (let i = 0; i < 30_000; i++) {
      const k = `k${i}`;
      expect(seg.get(k)).toBe(map.get(k));
      expect(seg.has(k)).toBe(map.has(k));
    }
    for (const k of [...map.keys()]) seg.delete(k);
    expect(seg.size).toBe(0);
    expect(seg.first()).toBeUndefined();
    expect(seg.valuesArray()).toEqual([]);
  });

  it('keeps a million keys in a few segments, so a key it does not hold costs a few lookups', () => {
    const seg = new SegmentedMap<string, number>();
    for (let i = 0; i < 1_000_000; i++) seg.set(`k${i}`, i);
    expect(seg.size).toBe(1_000_000);
    // Segments of 8,192 each would be 123 here: a miss (every new key, at a start) asked them all.
    expect(seg.segments).toBeLessThanOrEqual(20);
    expect(seg.get('k0')).toBe(0);
    expect(seg.get('k999999')).toBe(999_999);
    expect(seg.get('k1000000')).toBeUndefined();
  });

  it('append puts a new key last, as set does', () => {
    const r = rng(5);
    const seg = new SegmentedMap<string, number>();
    const map = new Map<string, number>();
    for (let i = 0; i < 150_000; i++) {
      const k = `k${Math.floor(r() * 100_000)}`;
      if (!map.has(k)) {
        seg.append(k, i);
        map.set(k, i);
      } else if (r() < 0.5) {
        seg.set(k, i);
        map.set(k, i);
      } else expect(seg.delete(k)).toBe(map.delete(k));
    }
    expect(seg.size).toBe(map.size);
    expect([...seg.entries()]).toEqual([...map.entries()]);
  });

  it('grows in one segment while a store opens, so a miss asks one Map; bounded segments again after', () => {
    const opening = { open: true };
    const seg = new SegmentedMap<string, number>(opening);
    for (let i = 0; i < 200_000; i++) seg.set(`k${i}`, i);
    // Without it, 200,000 keys are 7 segments, each asked for every new key of a fill.
    expect(seg.segments).toBe(1);
    opening.open = false;
    for (let i = 200_000; i < 200_000 + 65_536 + 1; i++) seg.append(`k${i}`, i);
    // The next growth rehashes a segment of at most 65,536 keys, never the 200,000 of the open.
    expect(seg.segments).toBe(3);
    expect(seg.size).toBe(265_537);
    expect(seg.get('k0')).toBe(0);
    expect(seg.get('k265536')).toBe(265_536);
    expect([...seg.values()].every((v, i) => v === i)).toBe(true);
  });
});
