import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((ok) => setImmediate(ok));
};

/**
 * Large texts are kept out of the JS heap once they are on disk: a store of 150 traces of 95,000
 * characters (14 MB of text, a byte a character in V8) opens with its heap grown by a small share
 * of the text (it held the text whole), and every text reads back the same, before and after a
 * snapshot, from db.json and from the journal.
 */
const TRACES = 150;
const CHARS = 95_000;
const text = (i: number, edit = '') => `${edit}note ${i} é “quoted” \\ ${'word '.repeat(CHARS / 5)}`.slice(0, CHARS);
const trace = (i: number, content = text(i)) => ({ uid: `t${i}`, user_id: 'u', type: 'observation', task_id: 'notes', content, version: 1 }) as never;

async function fill(home: string): Promise<void> {
  const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1e9 });
  for (let i = 0; i < TRACES; i += 10)
    await store.transact((tx) => {
      for (let j = i; j < i + 10; j++) tx.put('traces', trace(j));
    });
  await store.close();
}

async function openMeasured(home: string): Promise<{ store: Store; grown: number }> {
  const before = heapUsed();
  const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1e9 });
  await turns(50);
  return { store, grown: heapUsed() - before };
}

describe('large texts', () => {
  const fromJournal = tempHome();
  const fromSnapshot = tempHome();
  afterAll(() => {
    removeHome(fromJournal);
    removeHome(fromSnapshot);
  });

  it('are not held in the heap after a start from the journal, and read back whole', async () => {
    await fill(fromJournal);
    const { store, grown } = await openMeasured(fromJournal);
    expect(grown / (TRACES * CHARS), 'heap growth as a share of the text').toBeLessThan(0.25);
    expect(store.count('traces')).toBe(TRACES);
    for (let i = 0; i < TRACES; i += 37) {
      const t = store.get('traces', `t${i}`)!;
      expect(t.content).toBe(text(i));
      expect(JSON.parse(JSON.stringify(t)).content).toBe(text(i));
      expect({ ...t }.content).toBe(text(i));
      expect(structuredClone(t).content).toBe(text(i));
    }
    // An edit after the start, then a snapshot: the texts move to the new db.json.
    await store.transact((tx) => tx.put('traces', trace(3, text(3, 'edited '))));
    expect(store.get('traces', 't3')!.content).toBe(text(3, 'edited '));
    await store.snapshot();
    expect(store.get('traces', 't3')!.content).toBe(text(3, 'edited '));
    expect(store.get('traces', 't4')!.content).toBe(text(4));
    await store.close();
    // db.json holds every text itself: a person can read and restore it without kairos.
    const db = JSON.parse(await readFile(homePaths(fromJournal).db, 'utf8'));
    expect(db.collections.traces.find((t: { uid: string }) => t.uid === 't3').content).toBe(text(3, 'edited '));
  });

  it('are not held in the heap after a start from db.json', async () => {
    await fill(fromSnapshot);
    const first = await Store.open(homePaths(fromSnapshot), { snapshotEveryMs: 3_600_000 });
    await first.snapshot();
    await first.close();
    const { store, grown } = await openMeasured(fromSnapshot);
    expect(grown / (TRACES * CHARS), 'heap growth as a share of the text').toBeLessThan(0.25);
    for (let i = 0; i < TRACES; i += 29) expect(store.get('traces', `t${i}`)!.content).toBe(text(i));
    await store.close();
  });
});
