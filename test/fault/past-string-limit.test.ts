import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/config/paths.js';
import { rowMapPath, Store } from '../../src/store/store.js';
import { removeHome, tempHome } from '../helpers/daemon.js';

/**
 * A home past V8's string limit (~512 MiB) opens. Few large documents make it cheaply: the store
 * writes them to its journal, a later open replays the journal and folds it into db.json, and a
 * third open reads that db.json, from its row map and then whole. Each file is over 600 MB, so neither may be read as one string. (Minutes on a loaded 2-core machine: most of it is writing and parsing 600 MB three times.)
 */
const DOCS = 580;
const DOC_CHARS = 1 << 20;
const PER_TX = 32;

const content = (i: number) => `doc ${i} `.padEnd(DOC_CHARS, String.fromCharCode(97 + (i % 26)));
const onDisk = (home: string, prefix: string) =>
  readdirSync(home)
    .filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp'))
    .reduce((sum, n) => sum + statSync(join(home, n)).size, 0);

describe('a store past the string limit', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('opens from a journal and from a db.json each over 600 MB', async () => {
    const paths = homePaths(home);
    // No snapshot while writing: everything stays in the journal.
    let store = await Store.open(paths, { snapshotEveryOps: Number.MAX_SAFE_INTEGER, snapshotEveryMs: 3_600_000 });
    for (let i = 0; i < DOCS; i += PER_TX) {
      await store.transact((tx) => {
        for (let j = i; j < Math.min(DOCS, i + PER_TX); j++) tx.put('traces', { uid: `big-${j}`, user_id: 'u', task_id: 'big', content: content(j) } as never);
      });
    }
    await store.close();
    expect(onDisk(home, 'db.journal.') + onDisk(home, 'db.json')).toBeGreaterThan(600e6);

    store = await Store.open(paths, { snapshotEveryMs: 3_600_000 });
    expect(store.count('traces')).toBe(DOCS);
    await store.snapshot();
    await store.close();
    expect(onDisk(home, 'db.json')).toBeGreaterThan(600e6);

    // From db.json's row map (its documents read when asked), then, without the map, db.json read whole.
    for (const from of ['row map', 'db.json whole']) {
      if (from === 'db.json whole') rmSync(rowMapPath(paths));
      store = await Store.open(paths, { snapshotEveryMs: 3_600_000 });
      expect(store.count('traces'), from).toBe(DOCS);
      for (const i of [0, 1, DOCS - 1]) expect(store.get('traces', `big-${i}`)?.content === content(i), `${from}: big-${i}`).toBe(true);
      await store.close();
    }
  }, 600_000);
});
