import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { type StoredTrace, searchScopeKey } from '../../../../src/contracts/memory.js';
import { KEYWORD_REVISION, type KeywordFileReader } from '../../../../src/search/indexes/keyword-file.js';
import { KeywordIndex, SETTLE_IN_QUERY } from '../../../../src/search/indexes/keyword-index.js';
import { KeywordFileLoader } from '../../../../src/search/indexes/keyword-persistence.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';
import { prng } from '../../../helpers/fuzz-gen.js';
import { storedTrace } from '../../../helpers/stored-trace.js';

/**
 * Issue 28: the keyword index is persisted beside the store, so that a start takes each trace's
 * terms from the file (a million traces: seconds, not the minute of splitting and stemming that
 * held every search after a start). Whatever the file missed (writes after its last save, writes
 * while it is read, a damaged block), the index after a restart answers as one built from scratch.
 */
const home = tempHome();
afterAll(() => removeHome(home));

/** A full collection, from inside the test (the flag is only read when a context is made). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const file = join(home, 'search', 'keyword-index.bin');

const topics = [
  'doctor appointment about back pain',
  'bicycle repair, new brakes',
  'birthday presents for my sister',
  'database outage at work',
  'leg day at the gym',
];
const queries = ['doctor pain', 'bike brakes', 'presents', 'outage', 'gym', 'appointmnt'];

function trace(i: number, rand: () => number, user: string): StoredTrace {
  return storedTrace({
    uid: `t${i}`,
    user_id: user,
    task_id: `task-${Math.floor(rand() * 4)}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 1e6) * 60_000).toISOString(),
    content: `${topics[Math.floor(rand() * topics.length)]} (note ${i})`,
    ...(rand() < 0.2 ? { space: 'work' } : {}),
  });
}

/** Pushes, a large commit, edits (content, and other fields only), moves to another space, deletes. */
async function writes(store: Store, rand: () => number, from: number, steps: number): Promise<number> {
  let n = from;
  for (let step = 0; step < steps; step++) {
    const r = rand();
    const user = rand() < 0.7 ? 'u1' : 'u2';
    const cur = n ? store.get('traces', `t${Math.floor(rand() * n)}`) : undefined;
    if (r < 0.45) await store.transact((tx) => tx.put('traces', trace(n++, rand, user)));
    else if (r < 0.5)
      await store.transact((tx) => {
        for (let i = 0; i < 120; i++) tx.put('traces', trace(n++, rand, user));
      });
    else if (r < 0.7 && cur)
      await store.transact((tx) => tx.put('traces', { ...cur, content: `${cur.content} edited ${topics[step % topics.length]}`, version: cur.version + 1 }));
    else if (r < 0.8 && cur) await store.transact((tx) => tx.put('traces', { ...cur, importance: 5, version: cur.version + 1 }));
    else if (r < 0.85 && cur) await store.transact((tx) => tx.put('traces', { ...cur, space: cur.space ? undefined : 'work', version: cur.version + 1 }));
    else if (cur) await store.transact((tx) => tx.delete('traces', cur.uid));
  }
  return n;
}

type Logged = { msg: string } & Record<string, unknown>;

/** Every answer of the index that depends on what it holds. */
function answers(keyword: KeywordIndex, store: Store) {
  const out: Record<string, unknown> = {};
  for (const scope of ['u1', 'u2', searchScopeKey('u1', 'work'), searchScopeKey('u2', 'work')])
    for (const q of queries) out[`${JSON.stringify(scope)} ${q}`] = keyword.search(scope, q, { limit: 50 }).map((h) => [h.uid, h.score.toFixed(9), h.coverage]);
  out.neighbours = store
    .all('traces')
    .slice(0, 40)
    .map((t) => keyword.neighbours(t.uid, 2));
  out.size = keyword.size;
  return out;
}

function scratch(store: Store) {
  const keyword = new KeywordIndex();
  keyword.follow(store);
  return answers(keyword, store);
}

function persisted(store: Store) {
  const logs: Logged[] = [];
  const keyword = new KeywordIndex();
  keyword.follow(store, { file, log: (msg, extra, level = 'warn') => logs.push({ msg, level, ...extra }) });
  return { keyword, logs, read: () => logs.find((l) => l.msg === 'keyword index read') };
}

describe('the persisted keyword index (issue 28)', () => {
  it('a restart takes the terms from the file, indexes only what changed since, and equals an index built from scratch', async () => {
    const rand = prng(28);
    // A first life: built from scratch, written to, closed while small (which saves it).
    let store = await Store.open(homePaths(home));
    let life = persisted(store);
    let n = await writes(store, rand, 0, 50);
    await life.keyword.whenSettled();
    await life.keyword.close();
    await store.close();
    expect(existsSync(file)).toBe(true);
    expect(life.read(), 'no file to read at the first start').toBeUndefined();

    // Writes the file does not know (as after a stop that did not save).
    store = await Store.open(homePaths(home));
    n = await writes(store, rand, n, 30);
    await store.close();

    // A restart, with writes coming while the file is read.
    store = await Store.open(homePaths(home));
    life = persisted(store);
    n = await writes(store, rand, n, 20);
    await life.keyword.whenSettled();
    const restarted = answers(life.keyword, store);
    const read = life.read()!;
    expect(read, 'the file was read').toBeDefined();
    expect(read.level).toBe('info');
    expect(read.adopted as number).toBeGreaterThan(store.count('traces') / 2);
    expect(read.stale as number, 'rows whose traces changed since').toBeGreaterThan(0);
    expect(read.to_index as number).toBeLessThan(store.count('traces') / 2);
    expect(restarted).toEqual(scratch(store));
    await life.keyword.close();
    await store.close();

    // The stop saved what this life added: the next start takes every trace from the file.
    store = await Store.open(homePaths(home));
    life = persisted(store);
    await life.keyword.whenSettled();
    expect(life.read()).toMatchObject({ adopted: store.count('traces'), stale: 0, to_index: 0 });
    expect(answers(life.keyword, store)).toEqual(scratch(store));
    await life.keyword.close();
    await store.close();
  }, 60_000);

  it("lets go of the start's listing once the file is read (it held every uid for the index's life)", async () => {
    const leakHome = tempHome();
    try {
      let store = await Store.open(homePaths(leakHome));
      const first = new KeywordIndex();
      first.follow(store, { file: join(leakHome, 'search', 'keyword-index.bin') });
      await writes(store, prng(7), 0, 40);
      await first.whenSettled();
      await first.close();
      await store.close();
      store = await Store.open(homePaths(leakHome));
      // The listing the index takes at its start, watched from here.
      let listing: WeakRef<object> | undefined;
      const list = store.listing.bind(store);
      store.listing = ((c: 'traces') => {
        const l = list(c);
        listing = new WeakRef(l.keys);
        return l;
      }) as typeof store.listing;
      const keyword = new KeywordIndex();
      keyword.follow(store, { file: join(leakHome, 'search', 'keyword-index.bin') });
      await keyword.whenSettled();
      expect(existsSync(join(leakHome, 'search', 'keyword-index.bin')), 'the file was saved').toBe(true);
      expect(listing, 'the file was read from a listing').toBeDefined();
      await new Promise((ok) => setTimeout(ok, 0));
      collectGarbage();
      expect(listing!.deref(), 'the listing is still reachable').toBeUndefined();
      await keyword.close();
      await store.close();
    } finally {
      removeHome(leakHome);
    }
  });

  it('writes that come while the file is read are not undone by its rows', async () => {
    const bigHome = tempHome();
    const bigFile = join(bigHome, 'search', 'keyword-index.bin');
    try {
      const rand = prng(5);
      let store = await Store.open(homePaths(bigHome));
      // Enough rows that reading them takes several turns; few enough that the stop saves them.
      await store.transact((tx) => {
        for (let i = 0; i < 15_000; i++) tx.put('traces', trace(i, rand, 'u1'));
      });
      const first = new KeywordIndex();
      first.follow(store, { file: bigFile });
      await first.whenSettled();
      // A query takes in the rest of the fill: the stop then saves the whole index.
      first.traces('u1');
      expect(first.size).toBe(15_000);
      await first.close();
      await store.close();

      store = await Store.open(homePaths(bigHome));
      const logs: Logged[] = [];
      const keyword = new KeywordIndex();
      keyword.follow(store, { file: bigFile, log: (msg, extra) => logs.push({ msg, ...extra }) });
      // Edits and deletes of traces whose rows come late in the file, committed while it is read.
      await store.transact((tx) => {
        for (let i = 14_900; i < 14_950; i++) tx.put('traces', { ...store.get('traces', `t${i}`)!, content: `zeppelin ride ${i}`, version: 2 });
        for (let i = 14_950; i < 14_970; i++) tx.delete('traces', `t${i}`);
      });
      expect(
        logs.find((l) => l.msg === 'keyword index read'),
        'the writes came before the file was read',
      ).toBeUndefined();
      await keyword.whenSettled();
      expect(logs.find((l) => l.msg === 'keyword index read')).toMatchObject({ adopted: 14_930 });
      const hits = (q: string) =>
        ['u1', searchScopeKey('u1', 'work')].flatMap((scope) => keyword.search(scope, q, { limit: 20_000 }).map((h) => Number(h.uid.slice(1))));
      expect(hits('zeppelin').length).toBe(50);
      expect(hits('note').filter((i) => i >= 14_900 && i < 14_970)).toEqual([]);
      expect(answers(keyword, store)).toEqual(scratch(store));
      await keyword.close();
      await store.close();
    } finally {
      removeHome(bigHome);
    }
  });

  it('a search right after a start waits for the file, not for the index of every trace', async () => {
    const store = await Store.open(homePaths(home));
    const life = persisted(store);
    // The file is read in turns of its own; a query waits for them and then answers in full.
    expect(life.keyword.behind).toBe(store.count('traces'));
    await life.keyword.whenSettled();
    expect(life.keyword.behind).toBeLessThanOrEqual(SETTLE_IN_QUERY);
    expect(answers(life.keyword, store)).toEqual(scratch(store));
    // A query that settles at once (no wait) reads the rest of the file in its own turn.
    const again = persisted(store);
    expect(again.keyword.search('u1', 'outage', { limit: 50 }).map((h) => h.uid)).toEqual(life.keyword.search('u1', 'outage', { limit: 50 }).map((h) => h.uid));
    await again.keyword.close();
    await life.keyword.close();
    await store.close();
  });

  it('a damaged block is ignored from there on; the traces it held are indexed again', async () => {
    const good = readFileSync(file);
    const bad = Buffer.from(good);
    // A byte in the last block's rows.
    bad[bad.length - 10] ^= 0xff;
    writeFileSync(file, bad);
    const store = await Store.open(homePaths(home));
    const life = persisted(store);
    await life.keyword.whenSettled();
    expect(life.logs.find((l) => l.msg === 'ignoring the persisted keyword index; rebuilding it')).toMatchObject({
      reason: 'checksum mismatch (damaged block)',
    });
    expect(life.read()!.to_index as number).toBeGreaterThan(0);
    expect(answers(life.keyword, store)).toEqual(scratch(store));
    await life.keyword.close();
    await store.close();
    writeFileSync(file, good);
  });

  it('a file of another revision, or not a keyword index, is not used', async () => {
    const good = readFileSync(file);
    const other = Buffer.from(good);
    const headLen = other.readUInt32LE(8);
    other.write(JSON.stringify({ revision: KEYWORD_REVISION + 1 }).padEnd(headLen), 12, 'utf8');
    for (const [bytes, reason] of [
      [other, `made for revision ${KEYWORD_REVISION + 1}, not ${KEYWORD_REVISION}`],
      [Buffer.from('{"not":"a keyword file"}'), 'not a keyword index file'],
    ] as const) {
      writeFileSync(file, bytes);
      const store = await Store.open(homePaths(home));
      const life = persisted(store);
      await life.keyword.whenSettled();
      expect(life.logs.find((l) => l.msg === 'ignoring the persisted keyword index; rebuilding it')).toMatchObject({ reason });
      expect(life.read()).toBeUndefined();
      expect(answers(life.keyword, store)).toEqual(scratch(store));
      await life.keyword.close();
      await store.close();
    }
  });

  it('a read that fails ends the reading like a damaged block, without throwing into the start', () => {
    const reasons: string[] = [];
    const reader = {
      next: () => {
        throw new Error('EIO: i/o error, read');
      },
      close: async () => {},
    } as unknown as KeywordFileReader;
    const loader = new KeywordFileLoader(reader, { termId: () => 0, adopt: () => true }, (r) => reasons.push(r));
    expect(loader.step(8)).toBe(true);
    expect(reasons).toEqual(['unreadable: EIO: i/o error, read']);
  });
});
