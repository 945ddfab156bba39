import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { stageNewTrace } from '../../../../src/domain/memory/stage-trace.js';
import { nextTurn } from '../../../../src/platform/next-turn.js';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';
import { liveBytes } from '../../../helpers/heap.js';

const TRACES = 20_000;
const words = 'budget garden kitchen travel flight hotel invoice customer design review dentist swimming tennis meeting quarter'.split(' ');
const content = (i: number) => `Note: ${Array.from({ length: 10 }, (_, w) => words[(i * 7 + w * 3) % words.length]).join(' ')}`;

/**
 * What a small trace costs the daemon's heap after a start, once its keyword index is full: the
 * trace and its index entries, a fixed corpus of 20,000 notes of about 70 characters. About 760
 * bytes now. Storing each trace's first history row (now derived from the trace while it is
 * unedited) made it about 1,120 with the row sharing its trace, 1,590 without; a typed array per
 * trace in the keyword index (as it once kept each trace's terms) about 240 more.
 */
describe('heap per small trace after a start', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('stays under 900 bytes (trace, keyword index; no stored first history row)', async () => {
    const first = await Store.open(homePaths(home));
    for (let done = 0; done < TRACES; done += 1000)
      await first.transact((tx) => {
        for (let i = done; i < done + 1000; i++)
          stageNewTrace(tx, { type: 'observation', task_id: 'notes', content: content(i), user_id: 'u1', authored_by: 'u1' }, new Date());
      });
    await first.snapshot();
    await first.close();

    const before = liveBytes();
    const store = await Store.open(homePaths(home));
    const index = new KeywordIndex();
    const stopIndexing = index.follow(store);
    for (let turns = 0; turns < 100_000 && index.behind > 0; turns++) await nextTurn();
    expect(index.size).toBe(TRACES);
    const perTrace = (liveBytes() - before) / TRACES;
    expect(perTrace).toBeLessThan(900);
    stopIndexing();
    await store.close();
  }, 120_000);
});
