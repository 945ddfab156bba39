import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../../src/platform/key-table.js';

/** A table over a row list the test keeps, as a collection keeps its documents. */
function table(limits?: { min: number; max: number; opening: number }, opening?: { open: boolean }) {
  const rows: (string | undefined)[] = [];
  const t = new KeyTable((r) => rows[r], opening, 0, limits);
  const add = (k: string) => {
    const r = t.getOrAdd(k, rows.length);
    if (r === undefined) rows.push(k);
    return r;
  };
  return { t, rows, add };
}

describe('KeyTable', () => {
  it('finds every key it holds and none it does not, through growth', () => {
    const { t, add } = table();
    for (let i = 0; i < 50_000; i++) expect(add(`tr_${i}`)).toBeUndefined();
    expect(t.size).toBe(50_000);
    for (let i = 0; i < 50_000; i++) expect(t.get(`tr_${i}`)).toBe(i);
    expect(t.get('tr_50000')).toBeUndefined();
    // A key held answers its row, and nothing is added.
    expect(add('tr_123')).toBe(123);
    expect(t.size).toBe(50_000);
  });

  it('moves a key to another row, and deletes keys without losing those that probed past them', () => {
    // Keys that share a slot (a small table, many keys): deleting one must keep the rest findable.
    const { t, rows, add } = table({ min: 8, max: 8, opening: 8 });
    for (let i = 0; i < 200; i++) add(`k${i}`);
    expect(t.segments).toBeGreaterThan(1);
    for (let i = 0; i < 200; i += 3) {
      expect(t.delete(`k${i}`)).toBe(true);
      rows[i] = undefined;
    }
    expect(t.delete('k0')).toBe(false);
    for (let i = 0; i < 200; i++) expect(t.get(`k${i}`)).toBe(i % 3 === 0 ? undefined : i);
    rows.push('k1');
    expect(t.replace('k1', rows.length - 1)).toBe(true);
    rows[1] = undefined;
    expect(t.get('k1')).toBe(rows.length - 1);
    expect(t.replace('nope', 0)).toBe(false);
    expect(t.size).toBe(200 - 67);
  });

  it('doubles one table up to its limit while serving, and past it starts another; while opening, one takes all', () => {
    const serving = table({ min: 8, max: 64, opening: 1024 });
    for (let i = 0; i < 100; i++) serving.add(`a${i}`);
    // 32 keys fill a table of 64 slots by half: 100 keys take four tables.
    expect(serving.t.segments).toBe(4);
    const opening = { open: true };
    const open = table({ min: 8, max: 64, opening: 1024 }, opening);
    for (let i = 0; i < 500; i++) open.add(`a${i}`);
    expect(open.t.segments).toBe(1);
    opening.open = false;
    // The opened table takes 12 more (512 fill its 1,024 slots by half), then tables of 32: 1 + 3.
    for (let i = 500; i < 600; i++) open.add(`a${i}`);
    expect(open.t.segments).toBe(4);
    for (let i = 0; i < 600; i++) expect(open.t.get(`a${i}`)).toBe(i);
  });

  it('tells apart keys that are not strings from their strings, as the rows hold them', () => {
    const rows: unknown[] = [1, '1'];
    const t = new KeyTable((r) => rows[r]);
    expect(t.getOrAdd(1 as unknown as string, 0)).toBeUndefined();
    expect(t.getOrAdd('1', 1)).toBeUndefined();
    expect(t.get(1 as unknown as string)).toBe(0);
    expect(t.get('1')).toBe(1);
  });
});
