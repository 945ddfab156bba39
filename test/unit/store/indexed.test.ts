import { describe, expect, it } from 'vitest';
import { Indexed } from '../../../src/store/indexed.js';

const ids = (docs: Record<string, unknown>[]) => docs.map((d) => d.uid);
const ids2 = (docs: Record<string, unknown>[]) => docs.map((d) => d.id);

describe('Indexed', () => {
  const build = () => {
    const c = new Indexed('uid', ['user_id', 'task_id']);
    for (const [uid, task] of [
      ['a', 't1'],
      ['b', 't1'],
      ['c', 't2'],
      ['d', 't1'],
    ])
      c.put({ uid, user_id: 'u', task_id: task });
    return c;
  };
  /** The same documents loaded afresh in the collection's order, as a restart loads them. */
  const reloaded = (c: Indexed) => {
    const r = new Indexed('uid', ['user_id', 'task_id']);
    for (const d of c.all()) r.put(d);
    return r;
  };

  it('an edit that keeps an index value keeps the document in place there, as a restart would have it', () => {
    const c = build();
    c.put({ uid: 'a', user_id: 'u', task_id: 't1', content: 'edited' });
    expect(ids(c.byIndex('user_id', 'u'))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['a', 'b', 'd']);
    expect(c.byIndex('task_id', 't1')[0]).toMatchObject({ content: 'edited' });
    expect(ids(reloaded(c).byIndex('task_id', 't1'))).toEqual(ids(c.byIndex('task_id', 't1')));
  });

  it('an edit that changes an index value moves the document last everywhere, as a restart would have it; a delete empties buckets', () => {
    const c = build();
    c.put({ uid: 'c', user_id: 'u', task_id: 't1' });
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['a', 'b', 'd', 'c']);
    expect(c.byIndex('task_id', 't2')).toEqual([]);
    c.put({ uid: 'b', user_id: 'u' });
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['a', 'd', 'c']);
    for (const id of ['a', 'd']) c.delete(id);
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['c']);
    // c moved first, then b: both went last in the order they moved.
    expect(ids(c.byIndex('user_id', 'u'))).toEqual(['c', 'b']);
    expect(ids(c.all())).toEqual(['c', 'b']);
    const r = reloaded(c);
    for (const [i, v] of [
      ['user_id', 'u'],
      ['task_id', 't1'],
    ])
      expect(ids(r.byIndex(i!, v))).toEqual(ids(c.byIndex(i!, v)));
  });

  it('keeps its lists right through many deletes and moves (dead rows are dropped as they pile up)', () => {
    const c = new Indexed('uid', ['user_id', 'task_id']);
    const n = 200_000;
    for (let i = 0; i < n; i++) c.put({ uid: `t${i}`, user_id: 'u', task_id: `k${i % 3}` });
    // Every even trace deleted, every trace divisible by 3 (and odd) moved from k0 to k1.
    for (let i = 0; i < n; i += 2) c.delete(`t${i}`);
    for (let i = 3; i < n; i += 6) c.put({ uid: `t${i}`, user_id: 'u', task_id: 'k1', moved: true });
    const expectAll = [...Array(n).keys()].filter((i) => i % 2 === 1 && i % 3 !== 0).map((i) => `t${i}`);
    const moved = [...Array(n).keys()].filter((i) => i % 6 === 3).map((i) => `t${i}`);
    expect(ids(c.all())).toEqual([...expectAll, ...moved]);
    expect(c.size).toBe(n / 2);
    expect(c.byIndex('task_id', 'k0')).toEqual([]);
    expect(ids(c.byIndex('task_id', 'k1'))).toEqual([...expectAll.filter((u) => Number(u.slice(1)) % 3 === 1), ...moved]);
    expect(ids(c.byIndex('user_id', 'u'))).toEqual(ids(c.all()));
    expect(c.get('t0')).toBeUndefined();
    expect(c.get('t3')).toMatchObject({ task_id: 'k1', moved: true });
    // Emptied and refilled: a value whose documents all left takes new ones from scratch.
    for (const u of ids(c.all())) c.delete(u as string);
    expect(c.size).toBe(0);
    expect(c.all()).toEqual([]);
    expect(c.byIndex('user_id', 'u')).toEqual([]);
    c.put({ uid: 'x', user_id: 'u', task_id: 'k0' });
    c.put({ uid: 'y', user_id: 'u', task_id: 'k0' });
    expect(ids(c.byIndex('task_id', 'k0'))).toEqual(['x', 'y']);
    expect(ids(c.all())).toEqual(['x', 'y']);
  });

  it('an index value held by one document, then by none, then by two', () => {
    const c = new Indexed('id', ['hash']);
    c.put({ id: 'a', hash: 'h' });
    expect(c.byIndex('hash', 'h')).toEqual([{ id: 'a', hash: 'h' }]);
    c.put({ id: 'a', hash: 'g' });
    expect(c.byIndex('hash', 'h')).toEqual([]);
    c.put({ id: 'b', hash: 'h' });
    c.put({ id: 'c', hash: 'h' });
    c.delete('b');
    expect(ids2(c.byIndex('hash', 'h'))).toEqual(['c']);
    c.put({ id: 'b', hash: 'h' });
    expect(ids2(c.byIndex('hash', 'h'))).toEqual(['c', 'b']);
    expect(ids2(c.byIndex('hash', 'g'))).toEqual(['a']);
  });
});
