import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import type { StoredTrace } from '../../../src/contracts/memory.js';
import { BuiltinSpace } from '../../../src/search/embedding-spaces.js';
import { KeywordIndex } from '../../../src/search/indexes/keyword-index.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { SemanticSearch } from '../../../src/search/semantic-search.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';
import { prng } from '../../helpers/fuzz-gen.js';

/**
 * Issue 17: the search indexes follow the store behind the commit and fill themselves in the
 * background after a start. Whatever the history of writes (pushes, large commits, edits,
 * deletes, across users), the indexes after a restart must answer as those that followed the
 * writes live: the same keyword hits with the same scores, the same semantic hits.
 */
const home = tempHome();
afterAll(() => removeHome(home));

const topics = [
  'doctor appointment about back pain',
  'bicycle repair, new brakes',
  'birthday presents for my sister',
  'moving boxes for the new flat',
  'database outage at work',
  'quarterly report draft for the board',
  'leg day at the gym with squats',
];
const queries = ['physician visit', 'fixing my bike', 'presents', 'report', 'gym squats', 'outage', 'boxes flat'];

function trace(i: number, rand: () => number, user: string): StoredTrace {
  const t = topics[Math.floor(rand() * topics.length)]!;
  return {
    uid: `t${i}`,
    user_id: user,
    type: 'observation',
    task_id: `task-${Math.floor(rand() * 5)}`,
    timestamp: '2026-11-22T08:00:00.000Z',
    content: `${t} (note ${i}, ${topics[Math.floor(rand() * topics.length)]!.split(' ')[0]})`,
    importance: 3,
    version: 1,
    linked_trace_ids: [],
    child_trace_ids: [],
    authored_by: user,
    created_at: '2026-11-22T08:00:00.000Z',
    updated_at: '2026-11-22T08:00:00.000Z',
  };
}

async function indexes(store: Store) {
  const keyword = new KeywordIndex();
  keyword.follow(store);
  const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
  const space = new BuiltinSpace(store, model);
  await model.complete;
  await space.whenBelow(0);
  await keyword.whenSettled();
  return { keyword, space, semantic: new SemanticSearch(space) };
}

async function answers(ix: Awaited<ReturnType<typeof indexes>>, store: Store) {
  const out: Record<string, unknown> = {};
  for (const user of ['u1', 'u2'])
    for (const q of queries) out[`${user} keyword ${q}`] = ix.keyword.search(user, q, { limit: 20 }).map((h) => [h.uid, h.score.toFixed(9), h.coverage]);
  // The semantic index holds a vector for exactly the stored traces. (Its ranking also depends on
  // each row's neighbour density, measured against whichever rows hold the first slots: the same
  // traces after any start, not necessarily after a history of deletes; see neighbor-density.ts.)
  const index = ix.space.current!.index;
  out.vectors = index.size;
  out.missing = store
    .all('traces')
    .filter((t) => !index.has(t.uid))
    .map((t) => t.uid);
  const s = await ix.semantic.search('u1', 'physician visit', 5, () => true);
  out.semantic = s.available;
  return out;
}

/** A history of writes of both users: pushes, large commits, edits and deletes. */
async function writes(store: Store, rand: () => number, from: number, steps: number): Promise<number> {
  let n = from;
  for (let step = 0; step < steps; step++) {
    const r = rand();
    const user = rand() < 0.7 ? 'u1' : 'u2';
    if (r < 0.5) await store.transact((tx) => tx.put('traces', trace(n++, rand, user)));
    else if (r < 0.6) {
      // A large commit (an import): indexed behind it, in slices.
      await store.transact((tx) => {
        for (let i = 0; i < 150; i++) tx.put('traces', trace(n++, rand, user));
      });
    } else if (r < 0.85 && n) {
      const uid = `t${Math.floor(rand() * n)}`;
      const cur = store.get('traces', uid);
      if (cur)
        await store.transact((tx) => tx.put('traces', { ...cur, content: `${cur.content} edited ${topics[step % topics.length]}`, version: cur.version + 1 }));
    } else if (n) await store.transact((tx) => tx.delete('traces', `t${Math.floor(rand() * n)}`));
  }
  return n;
}

describe('the search indexes after a restart', () => {
  it('equal indexes built from scratch, also when writes come while they fill in the background', async () => {
    const rand = prng(17);
    const store = await Store.open(homePaths(home));
    await indexes(store);
    const n = await writes(store, rand, 0, 60);
    await store.close();

    // A restart: the indexes fill a slice per turn; writes come meanwhile.
    const again = await Store.open(homePaths(home));
    const keyword = new KeywordIndex();
    keyword.follow(again);
    const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
    const space = new BuiltinSpace(again, model);
    await model.complete;
    expect(space.behind).toBeGreaterThan(0);
    await writes(again, rand, n, 40);
    await space.whenBelow(0);
    await keyword.whenSettled();
    const restarted = await answers({ keyword, space, semantic: new SemanticSearch(space) }, again);
    await again.close();

    const third = await Store.open(homePaths(home));
    const scratch = await answers(await indexes(third), third);
    expect(restarted).toEqual(scratch);
    expect(restarted.vectors).toBe(third.count('traces'));
    expect(restarted.missing).toEqual([]);
    expect(restarted.semantic).toBe(true);
    await third.close();
  }, 120_000);
});
