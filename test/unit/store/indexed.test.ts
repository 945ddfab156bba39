import { describe, expect, it } from 'vitest';
import { Indexed } from '../../../src/store/indexed.js';

const ids = (docs: Record<string, unknown>[]) => docs.map((d) => d.uid);

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

  it('an edit that changes an index value moves the document between buckets; a delete empties them', () => {
    const c = build();
    c.put({ uid: 'c', user_id: 'u', task_id: 't1' });
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['a', 'b', 'd', 'c']);
    expect(c.byIndex('task_id', 't2')).toEqual([]);
    c.put({ uid: 'b', user_id: 'u' });
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['a', 'd', 'c']);
    for (const id of ['a', 'd']) c.delete(id);
    expect(ids(c.byIndex('task_id', 't1'))).toEqual(['c']);
    expect(ids(c.byIndex('user_id', 'u'))).toEqual(['b', 'c']);
    expect(ids(c.all())).toEqual(['b', 'c']);
  });
});
