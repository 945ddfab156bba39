import { describe, expect, it } from 'vitest';
import { GrowableArray, IN_PLACE_FROM_BYTES } from '../../../../src/search/indexes/growable-array.js';

describe('GrowableArray', () => {
  it('grows a large array in place: the rows it held are not copied, and they are all still there', () => {
    const growth = new GrowableArray(Float64Array);
    const large = IN_PLACE_FROM_BYTES / 8;
    let a = growth.grow(new Float64Array(0), 1000);
    for (let i = 0; i < a.length; i++) a[i] = i + 0.5;
    a = growth.grow(a, large);
    for (let i = 1000; i < a.length; i++) a[i] = i + 0.5;
    const before = a;
    // A million rows more, four growths of a quarter: each was a copy of everything.
    for (let n = large; n < large + 1_000_000; n = Math.ceil(n * 1.25)) a = growth.grow(a, Math.ceil(n * 1.25));
    expect(before.length).toBe(0);
    for (let i = 0; i < large; i++) if (a[i] !== i + 0.5) expect.fail(`row ${i} is ${a[i]}`);
    expect(a[large]).toBe(0);
    expect(a[a.length - 1]).toBe(0);
  });

  it('copies a small array, and fills what it adds with the tail value at any size', () => {
    const growth = new GrowableArray(Int32Array);
    const small = growth.grow(new Int32Array(0), 10, -1);
    small[3] = 7;
    const grown = growth.grow(small, 20, -1);
    expect(small.length).toBe(10);
    expect(Array.from(grown)).toEqual([-1, -1, -1, 7, ...Array(16).fill(-1)]);
    const big = growth.grow(grown, IN_PLACE_FROM_BYTES, -1);
    const bigger = growth.grow(big, IN_PLACE_FROM_BYTES * 2, -1);
    expect(bigger[3]).toBe(7);
    expect(bigger[IN_PLACE_FROM_BYTES - 1]).toBe(-1);
    expect(bigger[IN_PLACE_FROM_BYTES * 2 - 1]).toBe(-1);
    expect(bigger.subarray(0, 20)).toEqual(grown);
  });
});
