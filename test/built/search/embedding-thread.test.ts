import { describe, expect, it, vi } from 'vitest';
import type { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { EmbedWorker } from '../../../src/search/workers/embed-worker.js';
import type { Store } from '../../../src/store/store.js';
import { builtinSpaces } from '../../helpers/builtin-space.js';
import { storedTrace } from '../../helpers/stored-trace.js';

// Issue 17: written traces are embedded on a thread of their own, their rows placed back on the
// event loop. The index it builds must be the one the event loop builds alone, also when the
// thread dies in the middle of its batches and when later writes overtake earlier ones.

const topics = ['doctor appointment about back pain', 'bicycle repair, new brakes', 'birthday presents for my sister', 'database outage at work'];
const trace = (i: number, content = `${topics[i % topics.length]} (note ${i})`) =>
  storedTrace({ uid: `t${String(i).padStart(4, '0')}`, task_id: `task-${i % 3}`, content });

const space = builtinSpaces();

/** The same history of writes: pushes one by one and in bulk, edits of text, deletes. */
async function history(store: Store, during?: (i: number) => Promise<void>) {
  for (let i = 0; i < 120; i++) {
    await store.transact((tx) => tx.put('traces', trace(i)));
    await during?.(i);
  }
  await store.transact((tx) => {
    for (let i = 120; i < 400; i++) tx.put('traces', trace(i));
  });
  await during?.(120);
  for (let i = 0; i < 400; i += 7) await store.transact((tx) => tx.put('traces', { ...trace(i, `${topics[(i + 1) % 4]} rewritten ${i}`), version: 2 }));
  for (let i = 3; i < 400; i += 11) await store.transact((tx) => tx.delete('traces', trace(i).uid));
}

function rows(s: BuiltinSpace) {
  const index = s.current!.index;
  return index
    .uids()
    .sort()
    .map((uid) => {
      const r = index.raw(uid)!;
      return [uid, r.tag, r.scale, Array.from(r.components).join(',')];
    });
}

describe('the embedding thread', () => {
  it('builds the index the event loop builds alone, also when it dies mid-batch', async () => {
    const alone = await space(true);
    const threaded = await space(false);
    await history(alone.store);
    let kills = 0;
    await history(threaded.store, async (i) => {
      // Kill the thread while batches are out (it is started at the first one).
      if (i % 40 === 5 || i === 120) {
        const t = threaded.s.embeddingThread;
        if (t?.pending) kills++;
        await t?.crash();
      }
    });
    for (const x of [alone, threaded]) await x.s.whenBelow(0);
    expect(threaded.s.embeddingThread).toBeDefined();
    expect(kills).toBeGreaterThan(0);
    expect(threaded.s.current!.index.size).toBe(alone.s.current!.index.size);
    expect(rows(threaded.s)).toEqual(rows(alone.s));
    for (const q of ['physician visit', 'fixing my bike', 'presents for family', 'server down']) {
      const a = await alone.search.search('u', q, 10, () => true);
      const b = await threaded.search.search('u', q, 10, () => true);
      expect(a.available && b.available).toBe(true);
      if (a.available && b.available) expect(b.hits, q).toEqual(a.hits);
    }
    await Promise.all([alone.close(), threaded.close()]);
  }, 90_000);

  it('answers a query with every acknowledged write, embedded in one round trip', async () => {
    const x = await space(false);
    for (let i = 0; i < 50; i++) await x.store.transact((tx) => tx.put('traces', trace(i)));
    await x.store.transact((tx) => tx.put('traces', trace(999, 'quarterly board report about the harbour crane')));
    // Asked at once: the write is still on its way, the query takes it in first.
    const r = await x.search.search('u', 'harbour crane report', 3, () => true);
    expect(r.available).toBe(true);
    if (r.available) expect(r.hits[0]!.uid).toBe('t0999');
    await x.close();
  }, 60_000);

  it('does not embed again an edit that leaves the text alone', async () => {
    const x = await space(false);
    for (let i = 0; i < 20; i++) await x.store.transact((tx) => tx.put('traces', trace(i)));
    await x.s.whenBelow(0);
    const sent = vi.spyOn(EmbedWorker.prototype, 'embed');
    for (let i = 0; i < 20; i++) await x.store.transact((tx) => tx.put('traces', { ...trace(i), importance: 5, version: 2 }));
    await x.s.whenBelow(0);
    expect(sent).not.toHaveBeenCalled();
    await x.store.transact((tx) => tx.put('traces', { ...trace(1, 'a new text about the harbour crane'), version: 3 }));
    await x.s.whenBelow(0);
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
    await x.close();
  }, 60_000);
});

describe('EmbedWorker', () => {
  it('stops when idle and starts again for the next batch, with the same vectors', async () => {
    const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
    const embedder = (await model.complete)!;
    const w = new EmbedWorker(embedder, undefined, 200);
    const texts = ['doctor appointment about back pain', 'zzqx', 'fixing my bike'];
    const first = await w.embed(texts);
    expect(first.map((v) => v && Array.from(v))).toEqual(texts.map((t) => embedder.embed(t) && Array.from(embedder.embed(t)!)));
    expect(first[1]).toBeNull();
    expect(w.running).toBe(true);
    await new Promise((ok) => setTimeout(ok, 600));
    expect(w.running).toBe(false);
    expect((await w.embed(texts)).map((v) => v && Array.from(v))).toEqual(first.map((v) => v && Array.from(v)));
    await w.close();
    await model.close();
  }, 60_000);
});
