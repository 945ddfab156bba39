import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRowMap } from '../../../src/store/row-map.js';
import { COLLECTION_NAMES } from '../../../src/store/schema.js';
import { rowMapPath, Store, StoreOpenError } from '../../../src/store/store.js';
import { homesRemovedAfterEach } from '../../helpers/store-homes.js';

/**
 * db.json's row map (src/store/row-map.ts): a start whose db.json is the one the map describes
 * reads no document before it answers, and gives the same store as a whole read; any other
 * db.json is read whole, so damage is still refused.
 */

const paths = homesRemovedAfterEach();

/** Texts of every kind a byte offset can get wrong: multi-byte characters, escapes, large ones (spilled). */
const texts = ['plain', 'ünïcødé ✓ 日本語 🎉', 'quote " backslash \\ newline \n tab \t', `${'long 🎉 '.repeat(700)}end`, 'x'.repeat(5000)];

async function filled(p: ReturnType<typeof paths>) {
  const s = await Store.open(p);
  await s.transact((tx) => {
    for (let k = 0; k < 600; k++)
      tx.put('traces', { uid: `t${k}`, user_id: `u${k % 3}`, ...(k % 4 ? { task_id: `task${k % 7}` } : {}), content: `${k} ${texts[k % texts.length]}` });
    for (let k = 0; k < 900; k++) tx.put('trace_versions', { id: `v${k}`, uid: `t${k % 600}`, user_id: `u${k % 3}` });
    tx.setMeta('owner', 'u0');
  });
  await s.snapshot();
  await s.close();
  return p;
}

/** Everything a reader sees: every collection in order, each index's lists, the meta. */
function view(s: Store) {
  return {
    all: Object.fromEntries(COLLECTION_NAMES.map((c) => [c, s.all(c).map((d) => JSON.stringify(d))])),
    byUser: ['u0', 'u1', 'u2', 'u9'].map((u) => s.byIndex('traces', 'user_id', u).map((d) => d.uid)),
    byTask: ['task1', 'task3', undefined].map((t) => s.byIndex('traces', 'task_id', t).map((d) => d.uid)),
    versions: ['t1', 't599'].map((u) => s.byIndex('trace_versions', 'uid', u).map((d) => d.id)),
    meta: s.getMeta('owner'),
  };
}

async function wholeView(p: ReturnType<typeof paths>) {
  const copy = paths();
  writeFileSync(copy.db, readFileSync(p.db));
  const s = await Store.open(copy);
  const v = view(s);
  await s.close();
  return v;
}

describe("db.json's row map", () => {
  it('is written by a snapshot, and a start from it reads each document when asked, giving what a whole read gives', async () => {
    const p = await filled(paths());
    expect(existsSync(rowMapPath(p))).toBe(true);
    const whole = await wholeView(p);
    const s = await Store.open(p);
    // Asked before the background reading has begun: each answer reads its rows from db.json.
    expect(s.get('traces', 't3')).toMatchObject({ uid: 't3', content: `3 ${texts[3]}` });
    expect(s.get('traces', 't4')?.content).toBe(`4 ${texts[4]}`);
    expect(s.get('traces', 'nope')).toBeUndefined();
    const listed = s.listing('traces');
    expect(listed.keys.slice(0, 3)).toEqual(['t0', 't1', 't2']);
    expect(listed.doc(599)?.uid).toBe('t599');
    expect(view(s)).toEqual(whole);
    await s.warmed();
    expect(view(s)).toEqual(whole);
    await s.close();
  });

  it('takes writes to documents not read yet: edits, moves between index values, deletes, then snapshots them', async () => {
    const p = await filled(paths());
    const s = await Store.open(p);
    const listedBefore = s.listing('traces');
    await s.transact((tx) => {
      tx.put('traces', { uid: 't10', user_id: 'u9', content: 'moved to another user' });
      tx.put('traces', { ...tx.get('traces', 't11')!, content: 'edited in place' });
      tx.delete('traces', 't12');
      tx.put('traces', { uid: 'new', user_id: 'u1', content: 'new' });
    });
    const expected = view(s);
    expect(expected.byUser[3]).toEqual(['t10']);
    // A listing made before the writes: a moved or deleted trace has left its place, an edited one has not.
    expect([10, 11, 12].map((i) => listedBefore.doc(i)?.content)).toEqual([undefined, 'edited in place', undefined]);
    expect(s.get('traces', 't12')).toBeUndefined();
    // Waits for the background reading, then writes db.json and a new map.
    await s.snapshot();
    await s.close();
    const again = await Store.open(p);
    expect(view(again)).toEqual(expected);
    await again.close();
    expect(await wholeView(p)).toEqual(expected);
  });

  it('replays the journal on top of a start from the map', async () => {
    const p = await filled(paths());
    const s = await Store.open(p);
    await s.transact((tx) => tx.put('traces', { uid: 't0', user_id: 'u2', content: 'after the snapshot' }));
    await s.close();
    const again = await Store.open(p);
    expect(again.get('traces', 't0')).toMatchObject({ user_id: 'u2', content: 'after the snapshot' });
    expect(again.byIndex('traces', 'user_id', 'u0').map((d) => d.uid)).not.toContain('t0');
    await again.close();
  });

  it('is not used for a db.json changed since (a restored copy, an edit): that db.json is read whole', async () => {
    const p = await filled(paths());
    const other = await filled(paths());
    // Another home's db.json and map, copied over: same layout, another file.
    const s0 = await Store.open(p);
    await s0.transact((tx) => tx.put('traces', { uid: 'only-here', user_id: 'u1', content: 'x' }));
    await s0.snapshot();
    await s0.close();
    writeFileSync(other.db, readFileSync(p.db));
    const s = await Store.open(other);
    expect(s.get('traces', 'only-here')).toBeDefined();
    await s.close();
    // The same size and its times set back: one document's user changed by hand. Its index value
    // in the map is stale; the file's ctime tells it is not the file the map was made of.
    const q = await filled(paths());
    const before = statSync(q.db);
    const lines = readFileSync(q.db, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"uid":"t5"'));
    lines[at] = lines[at]!.replace('"user_id":"u2"', '"user_id":"u1"');
    writeFileSync(q.db, lines.join('\n'));
    utimesSync(q.db, before.atime, before.mtime);
    expect(statSync(q.db).size).toBe(before.size);
    const t = await Store.open(q);
    expect(t.byIndex('traces', 'user_id', 'u1').map((d) => d.uid)).toContain('t5');
    expect(t.byIndex('traces', 'user_id', 'u2').map((d) => d.uid)).not.toContain('t5');
    await t.close();
  });

  it('does not hide a damaged db.json: a start refuses it as it would without a map', async () => {
    const p = await filled(paths());
    truncateSync(p.db, 2000);
    const err = await Store.open(p).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreOpenError);
  });

  it('cut short or damaged, is set aside: db.json is read whole', async () => {
    const p = await filled(paths());
    const whole = await wholeView(p);
    const map = readFileSync(rowMapPath(p));
    for (const bad of [
      map.subarray(0, map.length - 30),
      map.subarray(0, map.indexOf(10) + 1),
      Buffer.from('{"kairos_row_map":1}\n'),
      Buffer.from('garbage\n'),
    ]) {
      writeFileSync(rowMapPath(p), bad);
      const s = await Store.open(p);
      expect(view(s)).toEqual(whole);
      await s.close();
    }
    rmSync(rowMapPath(p));
    const s = await Store.open(p);
    expect(view(s)).toEqual(whole);
    await s.close();
  });

  it('not written (its place taken by a folder), does not fail the snapshot: the next start reads db.json whole', async () => {
    const p = await filled(paths());
    rmSync(rowMapPath(p));
    mkdirSync(rowMapPath(p));
    const logged: string[] = [];
    const s = await Store.open(p, { log: (msg) => logged.push(msg) });
    await s.transact((tx) => tx.put('traces', { uid: 'late', user_id: 'u1', content: 'x' }));
    await s.snapshot();
    expect(logged).toContain('db.json.rows not written; the next start reads db.json whole');
    const expected = view(s);
    await s.close();
    const again = await Store.open(p);
    expect(view(again)).toEqual(expected);
    await again.close();
  });

  it('still names db.json after a snapshot that failed before replacing it (no backup link made first)', async () => {
    const p = await filled(paths());
    const s = await Store.open(p);
    await s.transact((tx) => tx.put('traces', { uid: 'late', user_id: 'u1', content: 'x' }));
    // The snapshot's temp file cannot be made: it fails once its data is laid out.
    const tmp = `${p.db}.${process.pid}.tmp`;
    mkdirSync(tmp);
    await expect(s.snapshot()).rejects.toThrow();
    rmSync(tmp, { recursive: true });
    // A backup link made first would have changed db.json's ctime, and the next start would read it whole.
    expect(await readRowMap(rowMapPath(p), p.db), 'the map still names db.json').toBeDefined();
    const expected = view(s);
    await s.close();
    const again = await Store.open(p);
    expect(view(again)).toEqual(expected);
    await again.close();
  });
});
