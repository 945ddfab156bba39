import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { rowMapPath, Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

/** Every call of the store's `loading` option while it opens. */
async function openCounting(home: string) {
  const calls: [number, number][] = [];
  const s = await Store.open(homePaths(home), { loading: (read, total) => calls.push([read, total]) });
  return { s, calls };
}

describe('Store.open reports how much of the store it has read', () => {
  it('from the journal and from db.json, up to every byte of both', async () => {
    const home = tempHome();
    homes.push(home);
    const s = await Store.open(homePaths(home));
    // Over a MiB, so the reading takes more than one chunk.
    await s.transact((tx) => {
      for (let k = 0; k < 300; k++) tx.put('traces', { uid: `t${k}`, user_id: 'u1', content: `${k} ${'x'.repeat(4000)}` });
      // Enough documents that filing them from db.json says it is still busy at least once.
      for (let k = 0; k < 5000; k++) tx.put('trace_versions', { id: `v${k}`, uid: `t${k % 300}`, user_id: 'u1' });
    });
    await s.close();
    // db.json with its row map (its documents are read when asked for), then without (read whole).
    for (const from of ['journal', 'row map', 'db.json']) {
      if (from === 'db.json') rmSync(rowMapPath(homePaths(home)));
      const { s: opened, calls } = await openCounting(home);
      const total = await opened.bytes();
      if (from !== 'row map') expect(calls.length, from).toBeGreaterThan(1);
      expect(calls.every(([, t]) => t === total)).toBe(true);
      expect(calls.map(([r]) => r)).toEqual([...calls.map(([r]) => r)].sort((a, b) => a - b));
      expect(calls.at(-1)![0]).toBe(total);
      // Read whole, then busy filing what it read (db.json's documents), with the same figures.
      if (from === 'db.json') expect(calls.filter(([r]) => r === total).length).toBeGreaterThan(1);
      expect(opened.count('traces')).toBe(300);
      if (from === 'journal') await opened.snapshot();
      await opened.close();
    }
  });
});
