import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { TimelineIndex } from '../../../../src/search/indexes/timeline-index.js';
import { storedTrace } from '../../../helpers/stored-trace.js';

const at = (minute: number) => new Date(Date.UTC(2031, 0, 1, 0, minute)).toISOString();

const t = (uid: string, minute: number, extra: Partial<StoredTrace> = {}) =>
  storedTrace({ uid, user_id: 'u1', task_id: 'chat', timestamp: at(minute), content: `turn ${uid}`, ...extra });

/** A timeline of these traces of task "chat", a minute apart from minute 1, in this order. */
function inOrder(...uids: string[]): TimelineIndex {
  const i = new TimelineIndex();
  uids.forEach((uid, n) => i.upsert(t(uid, n + 1)));
  return i;
}

describe('TimelineIndex', () => {
  it('lists the traces before and after one in time order, nearest first', () => {
    const i = inOrder('a', 'b', 'c', 'd', 'e');
    expect(i.neighbours('c', 2)).toEqual(['b', 'd', 'a', 'e']);
    expect(i.neighbours('a', 2)).toEqual(['b', 'c']);
    expect(i.neighbours('e', 1)).toEqual(['d']);
    expect(i.neighbours('unknown', 2)).toEqual([]);
  });

  it('orders by time whatever order the traces came in, equal times by uid', () => {
    const i = new TimelineIndex();
    i.upsert(t('late', 9));
    i.upsert(t('early', 1));
    i.upsert(t('m2', 5));
    i.upsert(t('m1', 5));
    expect(i.neighbours('early', 3)).toEqual(['m1', 'm2', 'late']);
    expect(i.neighbours('m2', 1)).toEqual(['m1', 'late']);
  });

  it('sorts a timeline that took too many out-of-order writes to keep in order, moves and deletes included', () => {
    const i = new TimelineIndex();
    // 400 traces in a scrambled order (far past the splices a timeline takes in place), every
    // fifth sharing its minute with the one before, some moved later and some deleted.
    const minute = new Map<string, number>();
    for (let k = 0; k < 400; k++) {
      const n = (k * 263) % 400;
      const uid = `tr_${String(n).padStart(3, '0')}`;
      minute.set(uid, n % 5 === 0 ? n - 1 : n);
      i.upsert(t(uid, minute.get(uid)!));
    }
    for (let n = 7; n < 400; n += 37) {
      const uid = `tr_${String(n).padStart(3, '0')}`;
      minute.set(uid, 1000 + n);
      i.upsert(t(uid, 1000 + n));
    }
    for (let n = 11; n < 400; n += 53) {
      const uid = `tr_${String(n).padStart(3, '0')}`;
      minute.delete(uid);
      i.remove(uid);
    }
    const want = [...minute.keys()].sort((a, b) => minute.get(a)! - minute.get(b)! || (a < b ? -1 : 1));
    want.forEach((uid, k) => {
      const expected = [want[k - 1], want[k + 1]].filter((x) => x !== undefined);
      expect(i.neighbours(uid, 1), uid).toEqual(expected);
    });
  });

  it('keeps tasks, users and spaces apart', () => {
    const i = new TimelineIndex();
    i.upsert(t('a', 1));
    i.upsert(t('other-task', 2, { task_id: 'work' }));
    i.upsert(t('other-user', 2, { user_id: 'u2' }));
    i.upsert(t('other-space', 2, { space: 'conv-1' }));
    i.upsert(t('b', 3));
    expect(i.neighbours('a', 2)).toEqual(['b']);
    expect(i.neighbours('other-task', 2)).toEqual([]);
  });

  it('follows edits of time and task, and deletes', () => {
    const i = inOrder('a', 'b', 'c', 'd');
    i.upsert(t('a', 5));
    expect(i.neighbours('d', 1)).toEqual(['c', 'a']);
    i.remove('c');
    expect(i.neighbours('d', 1)).toEqual(['b', 'a']);
    i.upsert(t('b', 2, { task_id: 'work' }));
    expect(i.neighbours('d', 2)).toEqual(['a']);
    expect(i.neighbours('b', 2)).toEqual([]);
    i.remove('a');
    i.remove('d');
    expect(i.size).toBe(1);
  });
});

describe('TimelineIndex against a sort of everything', () => {
  /** The expected neighbours: every trace of the task sorted by time then uid, as pull lists them. */
  function expected(live: Map<string, number>, uid: string, span: number): string[] {
    const order = [...live].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([u]) => u);
    const at = order.indexOf(uid);
    const out: string[] = [];
    for (let d = 1; d <= span; d++) {
      if (order[at - d] !== undefined) out.push(order[at - d]!);
      if (order[at + d] !== undefined) out.push(order[at + d]!);
    }
    return out;
  }

  it.each([
    ['a few writes out of order between lookups', 3],
    ['many writes out of order between lookups', 200],
  ])('%s', (_name, burst) => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const i = new TimelineIndex();
    const live = new Map<string, number>();
    for (let step = 0; step < 1500; step++) {
      const uid = `u${Math.floor(rnd() * 400)}`;
      // Mostly appends, some edits of time, some deletes.
      const r = rnd();
      if (r < 0.15 && live.has(uid)) {
        i.remove(uid);
        live.delete(uid);
      } else {
        const minute = r < 0.7 ? 1000 + step : Math.floor(rnd() * 1000);
        i.upsert(t(uid, minute));
        live.set(uid, minute);
      }
      if (step % burst === 0 && live.size) {
        const probe = [...live.keys()][Math.floor(rnd() * live.size)]!;
        expect(i.neighbours(probe, 2), `step ${step}`).toEqual(expected(live, probe, 2));
      }
    }
    for (const uid of live.keys()) expect(i.neighbours(uid, 2)).toEqual(expected(live, uid, 2));
  });
});

describe('KeywordIndex keeps the timeline with its documents', () => {
  it('an edit that leaves the words alone still moves the trace in time', () => {
    const k = new KeywordIndex();
    k.upsert(t('a', 1));
    k.upsert(t('b', 2));
    k.upsert(t('c', 3));
    k.upsert(t('a', 4));
    expect(k.neighbours('c', 1)).toEqual(['b', 'a']);
    k.remove('b');
    expect(k.neighbours('c', 1)).toEqual(['a']);
    expect(k.search('u1', 'turn').map((h) => h.uid)).toEqual(['a', 'c']);
  });
});
