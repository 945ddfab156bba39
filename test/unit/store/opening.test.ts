import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import type { KeyTable } from '../../../src/platform/key-table.js';
import type { SegmentedMap } from '../../../src/platform/segmented-map.js';
import type { Indexed } from '../../../src/store/indexed.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

/** The segments of the traces' documents and of their index by user (private, read for the test). */
function segments(store: Store): { docs: number; byUser: number } {
  const col = (store as unknown as { cols: Map<string, Indexed> }).cols.get('traces') as unknown as {
    rowOf: KeyTable;
    idx: { name: string; map: SegmentedMap<unknown, unknown> }[];
  };
  return { docs: col.rowOf.segments, byUser: col.idx.find((i) => i.name === 'user_id')!.map.segments };
}

const TRACES = 20_000;

describe('Store open', () => {
  it('files what it reads in one segment per map, and grows in bounded segments after', async () => {
    const home = tempHome();
    homes.push(home);
    const first = await Store.open(homePaths(home));
    for (let done = 0; done < TRACES; done += 2000)
      await first.transact((tx) => {
        // A user per trace: the index by user gets a new value for each.
        for (let i = done; i < done + 2000; i++) tx.put('traces', { uid: `tr_${i}`, user_id: `u${i}`, task_id: 't', content: `note ${i}` });
      });
    // Half in db.json, half replayed from the journal: both are read while the store opens.
    await first.snapshot();
    await first.transact((tx) => {
      for (let i = TRACES; i < TRACES + 2000; i++) tx.put('traces', { uid: `tr_${i}`, user_id: `u${i}`, task_id: 't', content: `note ${i}` });
    });
    // Written a segment at a time while serving: bounded growth (the key table doubles up to
    // millions of keys, its own test says how: one table here).
    expect(segments(first)).toMatchObject({ docs: 1 });
    expect(segments(first).byUser).toBeGreaterThan(1);
    await first.close();

    const store = await Store.open(homePaths(home));
    // 22,000 keys in segments grown from 8,192 would be 3: a new key of the open asked each.
    expect(segments(store)).toEqual({ docs: 1, byUser: 1 });
    await store.transact((tx) => tx.put('traces', { uid: 'tr_new', user_id: 'u_new', task_id: 't', content: 'after the open' }));
    expect(segments(store)).toEqual({ docs: 1, byUser: 2 });
    expect(store.get('traces', 'tr_0')).toMatchObject({ content: 'note 0' });
    expect(store.get('traces', 'tr_21999')).toMatchObject({ content: 'note 21999' });
    expect(store.byIndex('traces', 'user_id', 'u_new')).toHaveLength(1);
    expect(store.all('traces')).toHaveLength(TRACES + 2001);
    await store.close();
  }, 60_000);
});
