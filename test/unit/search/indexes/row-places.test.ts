import { describe, expect, it } from 'vitest';
import { RowPlaces } from '../../../../src/search/indexes/row-places.js';
import { VectorIndex } from '../../../../src/search/indexes/vector-index.js';
import { liveBytes } from '../../../helpers/heap.js';

const OWNER = 'usr_01m8g7cfqyxr562j7ertgxx6s1';

describe('RowPlaces', () => {
  it('gives back each uid’s user and slot, for many users and large slots', () => {
    const p = new RowPlaces();
    p.set('a', 'owner', 0);
    p.set('b', 'usr_2', 7);
    p.set('c', 'owner', 2 ** 31 - 1);
    p.set('d', 'usr_3', 123_456_789);
    expect(p.get('a')).toEqual({ user: 'owner', slot: 0 });
    expect(p.get('b')).toEqual({ user: 'usr_2', slot: 7 });
    expect(p.get('c')).toEqual({ user: 'owner', slot: 2 ** 31 - 1 });
    expect(p.get('d')).toEqual({ user: 'usr_3', slot: 123_456_789 });
    p.set('b', 'owner', 3);
    expect(p.get('b')).toEqual({ user: 'owner', slot: 3 });
    p.delete('a');
    expect(p.has('a')).toBe(false);
    expect(p.get('a')).toBeUndefined();
    expect(p.size).toBe(3);
    expect([...p.keys()].sort()).toEqual(['b', 'c', 'd']);
  });

  /**
   * The user ids of rows read back from the vector file are new strings, one per row: kept per
   * row with an object around them, they cost about 90 bytes a row more than the place itself.
   */
  it('cost a vector index about its rows, whatever string the user id arrives in', () => {
    const N = 50_000;
    const DIMS = 8;
    const rows = Array.from({ length: N }, (_, i) => ({
      uid: `tr_${i.toString().padStart(26, '0')}`,
      components: new Int8Array(DIMS).fill(1 + (i % 100)),
      scale: 1 / 128,
      tag: 1,
      density: new Float32Array(0),
    }));
    const index = new VectorIndex(DIMS);
    index.reserve(OWNER, N);
    index.loadRaw({ ...rows[0]!, userId: OWNER }, 'task');
    const before = liveBytes();
    // A fresh copy of the owner's id per row, as decoding the file gives.
    for (const r of rows.slice(1)) index.loadRaw({ ...r, userId: `${OWNER.slice(0, 10)}${OWNER.slice(10)}` }, 'task');
    const perRow = (liveBytes() - before) / (N - 1);
    expect(index.size).toBe(N);
    expect(rows.at(-1)!.components[0]).toBeGreaterThan(0);
    expect(perRow).toBeLessThan(90);
  });
});
