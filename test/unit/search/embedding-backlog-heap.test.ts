import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * A trace's text is kept once while it waits to be embedded: the store holds it, the embedding
 * backlog holds the trace, not a copy of its text. 200 traces of 95,000 characters (19 MB of
 * text, one byte a character in V8) are committed at once; while most of them wait for the
 * embedding thread, the heap has grown by about the text once (a copy per waiting trace made it
 * nearly twice that).
 */
const TRACES = 200;
const CHARS = 95_000;
const words = 'meeting budget project garden kitchen travel flight hotel invoice customer design review'.split(' ');
const text = (i: number) => {
  const parts = [`note ${i}:`];
  for (let w = 0, n = 0; n < CHARS; w++) {
    const word = words[(w * 5 + i) % words.length]!;
    parts.push(word);
    n += word.length + 1;
  }
  return parts.join(' ').slice(0, CHARS);
};

describe('texts waiting to be embedded', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('are held once (heap growth about the text, not twice)', async () => {
    const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000 });
    const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
    const space = new BuiltinSpace(store, model);
    await model.complete;
    await space.whenBelow(0);
    const before = heapUsed();
    await store.transact((tx) => {
      for (let i = 0; i < TRACES; i++)
        tx.put('traces', { uid: `t${i}`, user_id: 'u', type: 'observation', task_id: 'notes', content: text(i), version: 1 } as never);
    });
    // The backlog hands every write to the embedding pipeline within a few turns; the thread
    // takes tens of ms per trace, so most are still waiting when the heap is measured.
    for (let i = 0; i < 20; i++) await new Promise((ok) => setImmediate(ok));
    await new Promise((ok) => setTimeout(ok, 50));
    const waiting = space.behind;
    const grown = heapUsed() - before;
    expect(waiting, 'traces still waiting when measured').toBeGreaterThan(TRACES / 2);
    expect(grown / (TRACES * CHARS)).toBeLessThan(1.4);
    await space.close();
    await store.close();
  }, 120_000);
});
