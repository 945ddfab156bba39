import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import type { StoredTrace } from '../../../src/contracts/memory.js';
import { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { KeywordIndex } from '../../../src/search/indexes/keyword-index.js';
import { VECTORS_REVISION } from '../../../src/search/indexes/vector-file.js';
import { PersistedVectors } from '../../../src/search/indexes/vector-persistence.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { SemanticSearch } from '../../../src/search/semantic-search.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';
import { prng } from '../../helpers/fuzz-gen.js';
import { storedTrace } from '../../helpers/stored-trace.js';

/**
 * Issue 17: the search indexes follow the store behind the commit and fill themselves in the
 * background after a start. Whatever the history of writes (pushes, large commits, edits,
 * deletes, across users), the indexes after a restart must answer as those that followed the
 * writes live: the same keyword hits with the same scores, the same semantic hits.
 */
const home = tempHome();
const persistedHome = tempHome();
afterAll(() => {
  removeHome(home);
  removeHome(persistedHome);
});

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
  return storedTrace({
    uid: `t${i}`,
    user_id: user,
    task_id: `task-${Math.floor(rand() * 5)}`,
    content: `${t} (note ${i}, ${topics[Math.floor(rand() * topics.length)]!.split(' ')[0]})`,
  });
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

/** Every row of a semantic index as stored: owner, text hash, scale and int8 components, by uid. */
function rowsOf(space: BuiltinSpace): Record<string, unknown> {
  const index = space.current!.index;
  const out: Record<string, unknown> = {};
  for (const uid of index.uids().sort()) {
    const r = index.raw(uid)!;
    out[uid] = [r.userId, r.tag, r.scale, Array.from(r.components).join(',')];
  }
  return out;
}

type Logged = { msg: string } & Record<string, unknown>;

/** A semantic index over the store, persisted in `file`: filled (from the file where it can), its log kept. */
async function persistedSpace(store: Store, file: string, during?: () => Promise<unknown>) {
  const logs: Logged[] = [];
  const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
  const space = new BuiltinSpace(store, model, { file, log: (msg, extra, level = 'warn') => logs.push({ msg, level, ...extra }) });
  await model.complete;
  await during?.();
  await space.whenBelow(0);
  // The fill's log line comes once it is over and the file's rows are let go.
  for (let i = 0; i < 200 && !logs.some((l) => l.msg === 'semantic index filled'); i++) await new Promise((ok) => setTimeout(ok, 20));
  return { space, logs, filled: logs.find((l) => l.msg === 'semantic index filled') };
}

async function scratchRows(): Promise<Record<string, unknown>> {
  const store = await Store.open(homePaths(persistedHome));
  const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
  const space = new BuiltinSpace(store, model);
  await model.complete;
  await space.whenBelow(0);
  const rows = rowsOf(space);
  await store.close();
  return rows;
}

/** Restart over the persisted file as it is now: the rows, the log, what was reused. */
async function restart(file: string) {
  const store = await Store.open(homePaths(persistedHome));
  const r = await persistedSpace(store, file);
  const rows = rowsOf(r.space);
  await r.space.close();
  await store.close();
  return { ...r, rows };
}

describe('the persisted semantic index (issue 17)', () => {
  const file = join(persistedHome, 'search', 'builtin-vectors.bin');

  it('a restart reads the file, embeds only what changed since, and equals an index built from scratch', async () => {
    const rand = prng(4);
    // A first life: filled from scratch, written to, closed (which persists the index).
    let store = await Store.open(homePaths(persistedHome));
    let life = await persistedSpace(store, file);
    let n = await writes(store, rand, 0, 60);
    await life.space.whenBelow(0);
    await life.space.close();
    await store.close();
    expect(existsSync(file)).toBe(true);

    // Writes the file does not know (as after a crash between two saves).
    store = await Store.open(homePaths(persistedHome));
    n = await writes(store, rand, n, 30);
    await store.close();

    // A restart with writes coming while it fills.
    store = await Store.open(homePaths(persistedHome));
    const s = store;
    life = await persistedSpace(store, file, () => writes(s, rand, n, 20));
    const restarted = rowsOf(life.space);
    expect(life.filled).toMatchObject({ level: 'info' });
    expect(life.filled!.reused).toBeGreaterThan(50);
    expect(life.filled!.embedded).toBeGreaterThan(0);
    expect(life.filled!.embedded).toBeLessThan(life.filled!.reused as number);
    expect(Object.keys(restarted).length).toBe(store.count('traces'));
    await life.space.close();
    await store.close();

    expect(restarted).toEqual(await scratchRows());
    // Closed after the fill: the file now holds every row, and the next start embeds nothing.
    const again = await restart(file);
    expect(again.filled).toMatchObject({ embedded: 0 });
    expect(again.rows).toEqual(restarted);
  }, 120_000);

  it('a damaged or truncated file is ignored: the index is rebuilt and equals one built from scratch', async () => {
    const scratch = await scratchRows();
    const sound = readFileSync(file);
    const damaged = Buffer.from(sound);
    damaged[Math.floor(damaged.length / 2)]! ^= 0x40;
    writeFileSync(file, damaged);
    let r = await restart(file);
    expect(r.logs.find((l) => l.msg === 'ignoring the persisted search index; rebuilding it')).toMatchObject({
      level: 'warn',
      reason: expect.stringMatching(/checksum/),
    });
    expect(r.filled).toMatchObject({ reused: 0 }); // nothing was taken from the file
    expect(r.rows).toEqual(scratch);

    writeFileSync(file, sound);
    truncateSync(file, Math.floor(sound.length * 0.6));
    r = await restart(file);
    expect(r.logs.find((l) => l.msg === 'ignoring the persisted search index; rebuilding it')).toBeDefined();
    expect(r.filled).toMatchObject({ reused: 0 });
    expect(r.rows).toEqual(scratch);
  }, 120_000);

  it('a file of another model (or revision) is ignored', async () => {
    const scratch = await scratchRows();
    // A sound file (right checksum) whose rows were made by another model.
    const store = await Store.open(homePaths(persistedHome));
    const life = await persistedSpace(store, join(persistedHome, 'unused.bin'));
    const index = life.space.current!.index;
    const header = { model: 'another-model@1.0.0', dims: index.dims, revision: VECTORS_REVISION };
    await new PersistedVectors(file).save(() => ({ index, header, done: () => {} }));
    await store.close();
    let r = await restart(file);
    expect(r.logs.find((l) => l.msg === 'ignoring the persisted search index; rebuilding it')).toMatchObject({
      reason: expect.stringMatching(/model another-model/),
    });
    expect(r.rows).toEqual(scratch);

    const newer = { model: life.space.current!.embedder.model, dims: index.dims, revision: VECTORS_REVISION + 1 };
    await new PersistedVectors(file).save(() => ({ index, header: newer, done: () => {} }));
    r = await restart(file);
    expect(r.logs.find((l) => l.msg === 'ignoring the persisted search index; rebuilding it')).toMatchObject({ reason: expect.stringMatching(/revision/) });
    expect(r.rows).toEqual(scratch);
  }, 120_000);
});
