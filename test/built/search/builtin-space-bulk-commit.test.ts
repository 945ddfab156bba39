import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { SemanticSearch } from '../../../src/search/semantic-search.js';
import { Store } from '../../../src/store/store.js';
import { storedTrace } from '../../helpers/stored-trace.js';

// A large commit (an .ics import of thousands of events) is embedded a slice per turn of the
// event loop instead of in the commit listener, which held the daemon for most of a minute on a
// 58,000-event import. What a query sees must not change: the same ranking as writes one by one.
const homes = [mkdtempSync(join(tmpdir(), 'kairos-bulk-a-')), mkdtempSync(join(tmpdir(), 'kairos-bulk-b-'))];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

const topics = [
  'doctor appointment about back pain',
  'bicycle repair, new brakes',
  'birthday presents for my sister',
  'moving boxes for the new flat',
  'database outage at work',
];
const trace = (i: number) =>
  storedTrace({ uid: `t${String(i).padStart(4, '0')}`, task_id: `task-${i % 7}`, content: `${topics[i % topics.length]} (note ${i})` });

async function space(home: string) {
  const store = await Store.open(homePaths(home));
  const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
  const s = new BuiltinSpace(store, model);
  await model.complete;
  return { store, s, search: new SemanticSearch(s) };
}

describe('a large commit in the semantic index', () => {
  it('is embedded after the commit, in slices, and ranks as writes one at a time do', async () => {
    const one = await space(homes[0]!);
    for (let i = 0; i < 300; i++) await one.store.transact((tx) => tx.put('traces', trace(i)));

    const bulk = await space(homes[1]!);
    await bulk.store.transact((tx) => {
      for (let i = 0; i < 300; i++) tx.put('traces', trace(i));
    });
    // The commit listener left the work for later turns of the event loop.
    expect(bulk.s.current!.index.has('t0299')).toBe(false);
    await new Promise((ok) => setImmediate(ok));
    expect(bulk.s.current!.index.has('t0299')).toBe(false);

    for (const q of ['physician visit', 'fixing my bike', 'presents for family']) {
      const a = await one.search.search('u', q, 10, () => true);
      const b = await bulk.search.search('u', q, 10, () => true);
      expect(a.available && b.available).toBe(true);
      if (!a.available || !b.available) continue;
      expect(
        b.hits.map((h) => h.uid),
        q,
      ).toEqual(a.hits.map((h) => h.uid));
    }
    expect(bulk.s.current!.index.has('t0299')).toBe(true);
  }, 60_000);
});
