import { afterEach, describe, expect, it, vi } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { Interner } from '../../../src/store/intern.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

/** The values an Interner's cache holds (private, read for the test). */
const held = (i: Interner) => (i as unknown as { slots: (string | undefined)[] }).slots.filter((v) => v !== undefined);

describe('Interner', () => {
  it('keeps values equal, shares empty arrays frozen, and stays bounded', () => {
    const i = new Interner(4);
    const doc: Record<string, unknown> = { a: 'x'.repeat(10), b: [], c: 'y'.repeat(100), d: 3, e: [1] };
    i.doc(doc);
    expect(doc).toEqual({ a: 'x'.repeat(10), b: [], c: 'y'.repeat(100), d: 3, e: [1] });
    expect(Object.isFrozen(doc.b)).toBe(true);
    const other: Record<string, unknown> = { b: [] };
    i.doc(other);
    expect(other.b).toBe(doc.b);
    for (let k = 0; k < 100; k++) expect(i.str(`v${k}`)).toBe(`v${k}`);
    expect(held(i).length).toBeLessThanOrEqual(4);
  });

  it('leaves the primary key out of its table, and shares a timestamp with an equal field of the document', () => {
    const i = new Interner();
    const at = '2026-11-28T08:00:00.000Z';
    const doc: Record<string, unknown> = { uid: 'tr_0001', user_id: 'u1', created_at: at, updated_at: `${at}`, due: '2026-12-01' };
    i.doc(doc, 'uid');
    expect(doc).toEqual({ uid: 'tr_0001', user_id: 'u1', created_at: at, updated_at: at, due: '2026-12-01' });
    // Each value that may repeat across documents once; not the uid, and the instant once.
    expect(held(i).sort()).toEqual(['u1', at, '2026-12-01'].sort());
  });

  it('gives the copy it holds for an equal string, and a value pushes out the one in its place', () => {
    const i = new Interner(1);
    const a = 'abc'.repeat(2);
    expect(i.str(a)).toBe(a);
    expect(i.str('abcabc'.slice(0))).toBe(a);
    const b = 'xyz'.repeat(2);
    expect(i.str(b)).toBe(b);
    expect(held(i)).toEqual([b]);
  });

  it('takes a value equal to the one the document before held in the same field without asking its table', () => {
    const i = new Interner();
    const asked = vi.spyOn(i, 'str');
    const docs = ['x1', 'x2', 'x3'].map((a) => ({ user_id: 'u1', a }) as Record<string, unknown>);
    for (const d of docs) i.doc(d);
    // u1 was asked for once, for the first document; each x once.
    expect(asked.mock.calls.map((c) => c[0])).toEqual(['u1', 'x1', 'x2', 'x3']);
    expect(docs.map((d) => d.user_id)).toEqual(['u1', 'u1', 'u1']);
    expect(docs.map((d) => d.a)).toEqual(['x1', 'x2', 'x3']);
  });
});

describe('Store documents in memory', () => {
  it('are the same values after interning, through the journal and through a snapshot', async () => {
    const home = tempHome();
    homes.push(home);
    const p = homePaths(home);
    const docs = Array.from({ length: 50 }, (_, k) => ({
      uid: `t${k}`,
      user_id: 'u1',
      task_id: 'same task',
      content: `c${k}`,
      linked: [],
      created_at: 'T',
      updated_at: 'T',
    }));
    let s = await Store.open(p);
    await s.transact((tx) => {
      for (const d of docs) tx.put('traces', d);
    });
    const check = (st: Store) => {
      for (const d of docs) expect(st.get('traces', d.uid)).toEqual(d);
      expect(st.get('traces', 't1')!.linked).toBe(st.get('traces', 't2')!.linked);
      expect(() => (st.get('traces', 't1')!.linked as unknown as unknown[]).push(1)).toThrow();
    };
    check(s);
    await s.close();
    s = await Store.open(p); // from the journal
    check(s);
    await s.snapshot();
    await s.close();
    s = await Store.open(p); // from db.json
    check(s);
    await s.close();
  });
});
