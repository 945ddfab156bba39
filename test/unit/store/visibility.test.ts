import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import type { JournalOp } from '../../../src/store/journal.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

/**
 * Issue 15 item 1, the in-memory half: a write is visible to readers and commit listeners only once
 * the journal has synced it, while later transactions are staged on top of it (single writer).
 */
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

async function open() {
  const h = tempHome();
  homes.push(h);
  return Store.open(homePaths(h), { snapshotEveryMs: 3_600_000 });
}

const trace = (uid: string, content = uid) => ({ uid, user_id: 'u1', task_id: 't1', content });

describe('Store: visibility of writes on their way to disk', () => {
  it('shows a write to readers and listeners only once it is durable', async () => {
    const s = await open();
    const heard: JournalOp[][] = [];
    s.onCommit((ops) => heard.push(ops));
    const pending = s.transact((tx) => tx.put('traces', trace('a')));
    // The append is on its way: nobody outside the writer sees it yet.
    expect(s.get('traces', 'a')).toBeUndefined();
    expect(s.byIndex('traces', 'user_id', 'u1')).toEqual([]);
    expect(s.all('traces')).toEqual([]);
    expect(heard).toEqual([]);
    await pending;
    expect(s.get('traces', 'a')).toMatchObject({ uid: 'a' });
    expect(heard).toHaveLength(1);
    await s.close();
  });

  it('stages a transaction on top of the ones still on their way to disk', async () => {
    const s = await open();
    await s.transact((tx) => tx.put('traces', trace('base')));
    const first = s.transact((tx) => {
      tx.put('traces', trace('a', 'v1'));
      tx.delete('traces', 'base');
      tx.setMeta('m', 1);
    });
    const second = s.transact((tx) => {
      expect(tx.get('traces', 'a')).toMatchObject({ content: 'v1' });
      expect(tx.get('traces', 'base')).toBeUndefined();
      expect(tx.byIndex('traces', 'user_id', 'u1').map((d) => d.uid)).toEqual(['a']);
      expect(tx.all('traces').map((d) => d.uid)).toEqual(['a']);
      expect(tx.getMeta('m')).toBe(1);
      tx.put('traces', trace('a', 'v2'));
    });
    expect(s.get('traces', 'base')).toMatchObject({ uid: 'base' });
    await Promise.all([first, second]);
    expect(s.get('traces', 'a')).toMatchObject({ content: 'v2' });
    expect(s.get('traces', 'base')).toBeUndefined();
    expect(s.getMeta('m')).toBe(1);
    await s.close();
  });
});
