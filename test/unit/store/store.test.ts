import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/store/schema.js';
import { Store, StoreOpenError } from '../../../src/store/store.js';
import { homesRemovedAfterEach } from '../../helpers/store-homes.js';

const paths = homesRemovedAfterEach();

const trace = (uid: string, user = 'u1', extra: Record<string, unknown> = {}) => ({ uid, user_id: user, task_id: 't1', content: uid, ...extra });

describe('Store', () => {
  it('creates db.json (0600) in a 0700 home with a schema_version', async () => {
    const p = paths();
    const s = await Store.open(p);
    await s.close();
    const db = JSON.parse(readFileSync(p.db, 'utf8'));
    expect(db.schema_version).toBe(SCHEMA_VERSION);
    expect(db.collections.traces).toEqual([]);
    const { statSync } = await import('node:fs');
    expect(statSync(p.db).mode & 0o777).toBe(0o600);
  });

  it('commits a transaction all or nothing', async () => {
    const s = await Store.open(paths());
    await expect(
      s.transact((tx) => {
        tx.put('traces', trace('a'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(s.get('traces', 'a')).toBeUndefined();
    await s.transact((tx) => {
      tx.put('traces', trace('a'));
      tx.put('traces', trace('b'));
    });
    expect(s.count('traces')).toBe(2);
    await s.close();
  });

  it('reads its own staged writes inside a transaction, indexes included', async () => {
    const s = await Store.open(paths());
    await s.transact((tx) => tx.put('traces', trace('a')));
    await s.transact((tx) => {
      tx.put('traces', trace('b'));
      tx.delete('traces', 'a');
      expect(tx.get('traces', 'b')).toMatchObject({ uid: 'b' });
      expect(tx.get('traces', 'a')).toBeUndefined();
      expect(tx.byIndex('traces', 'user_id', 'u1').map((d) => d.uid)).toEqual(['b']);
    });
    await s.close();
  });

  it('keeps secondary indexes right through updates and deletes', async () => {
    const s = await Store.open(paths());
    await s.transact((tx) => {
      tx.put('traces', trace('a', 'u1'));
      tx.put('traces', trace('b', 'u2'));
    });
    await s.transact((tx) => tx.put('traces', trace('a', 'u2')));
    expect(s.byIndex('traces', 'user_id', 'u1')).toEqual([]);
    expect(
      s
        .byIndex('traces', 'user_id', 'u2')
        .map((d) => d.uid)
        .sort(),
    ).toEqual(['a', 'b']);
    await s.transact((tx) => tx.delete('traces', 'b'));
    expect(s.byIndex('traces', 'user_id', 'u2').map((d) => d.uid)).toEqual(['a']);
    await s.close();
  });

  it('freezes stored documents so a mutation cannot bypass the journal', async () => {
    const s = await Store.open(paths());
    await s.transact((tx) => tx.put('traces', trace('a', 'u1', { tags: ['x'] })));
    const doc = s.get<Record<string, any>>('traces', 'a')!;
    expect(() => {
      doc.content = 'changed';
    }).toThrow(TypeError);
    expect(() => doc.tags.push('y')).toThrow(TypeError);
    await s.close();
  });

  it('simulate() leaves no trace', async () => {
    const p = paths();
    const s = await Store.open(p);
    await s.transact((tx) => tx.put('traces', trace('a')));
    const r = s.simulate((tx) => {
      tx.put('traces', trace('z'));
      return tx.all('traces').length;
    });
    expect(r).toBe(2);
    expect(s.get('traces', 'z')).toBeUndefined();
    await s.close();
  });

  it('recovers acknowledged writes from the journal when no snapshot was taken', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1_000_000 });
    for (let i = 0; i < 50; i++) await s.transact((tx) => tx.put('traces', trace(`t${i}`)));
    await s.transact((tx) => tx.setMeta('k', 'v'));
    // Simulate a crash: no close(), so db.json still holds the empty snapshot.
    expect(JSON.parse(readFileSync(p.db, 'utf8')).collections.traces).toHaveLength(0);
    const again = await Store.open(p);
    expect(again.count('traces')).toBe(50);
    expect(again.getMeta('k')).toBe('v');
    await again.snapshot();
    await again.close();
    expect(JSON.parse(readFileSync(p.db, 'utf8')).collections.traces).toHaveLength(50);
  });

  it('close writes no snapshot: db.json stays as it was, and the next open replays the journal', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1_000_000 });
    const before = readFileSync(p.db, 'utf8');
    const { ino } = statSync(p.db);
    for (let i = 0; i < 20; i++) await s.transact((tx) => tx.put('traces', trace(`t${i}`)));
    await s.transact((tx) => tx.setMeta('k', 'v'));
    await s.close();
    expect(readFileSync(p.db, 'utf8')).toBe(before);
    expect(statSync(p.db).ino).toBe(ino);
    expect(readdirSync(p.home).filter((n) => n.startsWith('db.journal.')).length).toBeGreaterThan(0);
    const again = await Store.open(p);
    expect(again.count('traces')).toBe(20);
    expect(again.getMeta('k')).toBe('v');
    await again.close();
  });

  it('leaves no empty journal segment behind from starts that wrote nothing', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1_000_000 });
    await s.transact((tx) => tx.put('traces', trace('t0')));
    await s.close();
    const segments = () => readdirSync(p.home).filter((n) => n.startsWith('db.journal.'));
    const written = segments().filter((n) => statSync(join(p.home, n)).size > 0);
    expect(written).toHaveLength(1);
    // Ten starts and stops with no write: the segment that holds the write stays (it is not in
    // db.json), and at most the last start's empty one with it.
    for (let i = 0; i < 10; i++) await (await Store.open(p)).close();
    expect(segments().length).toBeLessThanOrEqual(2);
    expect(segments()).toEqual(expect.arrayContaining(written));
    const again = await Store.open(p);
    expect(again.get('traces', 't0')).toMatchObject({ content: 't0' });
    await again.close();
  });

  it('close drops a snapshot under way and keeps every acknowledged write', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1_000_000 });
    const before = readFileSync(p.db, 'utf8');
    for (let i = 0; i < 300; i++) await s.transact((tx) => tx.put('traces', trace(`t${i}`, 'u1', { content: `note ${i} `.repeat(400) })));
    const snap = s.snapshot().then(
      () => 'written',
      () => 'dropped',
    );
    await s.close();
    // Written before close came, or dropped: never half of it.
    const outcome = await snap;
    if (outcome === 'dropped') expect(readFileSync(p.db, 'utf8')).toBe(before);
    expect(readdirSync(p.home).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const again = await Store.open(p);
    expect(again.count('traces')).toBe(300);
    await again.close();
  });

  it('snapshots after N operations and retires the journal segments it covers', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryOps: 10, snapshotEveryMs: 3_600_000 });
    for (let i = 0; i < 25; i++) await s.transact((tx) => tx.put('traces', trace(`t${i}`)));
    await s.snapshot();
    const db = JSON.parse(readFileSync(p.db, 'utf8'));
    expect(db.collections.traces).toHaveLength(25);
    const segments = readdirSync(p.home).filter((n) => n.startsWith('db.journal.'));
    expect(segments).toHaveLength(1);
    await s.close();
  });

  it('ignores a torn last journal line (never acknowledged) and keeps the rest', async () => {
    const p = paths();
    const s = await Store.open(p, { snapshotEveryMs: 3_600_000, snapshotEveryOps: 1_000_000 });
    await s.transact((tx) => tx.put('traces', trace('a')));
    const seg = readdirSync(p.home)
      .filter((n) => n.startsWith('db.journal.'))
      .sort()
      .at(-1)!;
    appendFileSync(join(p.home, seg), '{"seq":99,"ops":[{"op":"put","c":"traces","doc":{"uid":"tor');
    const again = await Store.open(p);
    expect(again.get('traces', 'a')).toBeDefined();
    expect(again.count('traces')).toBe(1);
    await again.close();
  });

  it.each([
    ['not JSON', '{"schema_version": 1, "collections": {'],
    ['null', 'null'],
    ['an array', '[]'],
    ['a collection that is not an array', '{"schema_version":1,"meta":{},"collections":{"traces":{}}}'],
    ['no schema_version', '{"meta":{},"collections":{}}'],
  ])('refuses a db.json that is %s, leaves it untouched and saves a copy', async (_what, content) => {
    const p = paths();
    const s = await Store.open(p);
    await s.transact((tx) => tx.put('traces', trace('a')));
    await s.snapshot(); // a backup of the previous file
    await s.close();
    const s2 = await Store.open(p);
    await s2.transact((tx) => tx.put('traces', trace('b')));
    await s2.snapshot();
    await s2.close();
    writeFileSync(p.db, content);
    const err = await Store.open(p).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreOpenError);
    const msg = (err as Error).message;
    expect(msg).toContain(p.db);
    expect(msg).toMatch(/cp .*backups.*db-.*\.json/);
    expect(readFileSync(p.db, 'utf8')).toBe(content);
    const copies = readdirSync(p.home).filter((n) => n.startsWith('db.json.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(p.home, copies[0]!), 'utf8')).toBe(content);
    // The backup it names is a good file that opens.
    const backup = /cp (\S+) /.exec(msg)![1]!;
    writeFileSync(p.db, readFileSync(backup));
    const restored = await Store.open(p);
    expect(restored.get('traces', 'a')).toBeDefined();
    await restored.close();
  });

  it('refuses a db.json written by a newer kairos', async () => {
    const p = paths();
    writeFileSync(p.db, JSON.stringify({ schema_version: 99, journal_seq: 0, meta: {}, collections: {} }));
    await expect(Store.open(p)).rejects.toThrow(/newer/);
    expect(JSON.parse(readFileSync(p.db, 'utf8')).schema_version).toBe(99);
  });

  it('keeps a bounded number of rotating backups', async () => {
    const p = paths();
    const s = await Store.open(p, { backups: 2 });
    for (let i = 0; i < 5; i++) {
      await s.transact((tx) => tx.put('traces', trace(`t${i}`)));
      await s.snapshot();
      await new Promise((r) => setTimeout(r, 5));
    }
    await s.close();
    expect(readdirSync(p.backups).filter((n) => n.endsWith('.json'))).toHaveLength(2);
    expect(existsSync(p.db)).toBe(true);
  });

  it('serializes concurrent transactions without losing any', async () => {
    const s = await Store.open(paths());
    await s.transact((tx) => tx.setMeta('n', 0));
    await Promise.all(Array.from({ length: 200 }, () => s.transact((tx) => tx.setMeta('n', (tx.getMeta<number>('n') ?? 0) + 1))));
    expect(s.getMeta('n')).toBe(200);
    await s.close();
  });
});
