import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { storedTrace } from '../../../helpers/stored-trace.js';

const t = (uid: string, content: string, user = 'u1', extra: Partial<StoredTrace> = {}) => storedTrace({ uid, user_id: user, content, ...extra });

function index() {
  const i = new KeywordIndex();
  i.upsert(t('a', 'Planning the meetings for next quarter'));
  i.upsert(t('b', 'Called the dentist about a cleaning'));
  i.upsert(t('c', 'Swimming lessons with the kids', 'u1', { notes: 'bring goggles' }));
  i.upsert(t('z', 'Planning my dentist visit', 'u2'));
  return i;
}
const uids = (i: KeywordIndex, q: string, user = 'u1') => i.search(user, q).map((h) => h.uid);

describe('KeywordIndex', () => {
  it.each([
    ['stems', 'planned meeting', 'a'],
    ['matches prefixes', 'denti', 'b'],
    ['forgives typos', 'swimmming', 'c'],
    ['searches notes too', 'goggle', 'c'],
  ])('%s', (_what, q, uid) => {
    expect(uids(index(), q)[0]).toBe(uid);
  });

  it('never returns another user’s traces', () => {
    expect(uids(index(), 'dentist planning')).not.toContain('z');
    expect(uids(index(), 'dentist', 'u2')).toEqual(['z']);
    expect(uids(index(), 'dentist', 'nobody')).toEqual([]);
  });

  it('updates and removes incrementally', () => {
    const i = index();
    i.upsert(t('b', 'Called the plumber about a leak'));
    expect(uids(i, 'dentist')).toEqual([]);
    expect(uids(i, 'plumber')).toEqual(['b']);
    i.remove('b');
    expect(uids(i, 'plumber')).toEqual([]);
    expect(i.size).toBe(3);
  });

  it('scores best first', () => {
    const hits = index().search('u1', 'planning meetings quarter');
    expect(hits[0]!.uid).toBe('a');
    for (let k = 1; k < hits.length; k++) expect(hits[k - 1]!.score).toBeGreaterThanOrEqual(hits[k]!.score);
  });
});

describe('edits that leave the words alone (issue 17)', () => {
  it('keep the document in place: no tombstone, the same scores', () => {
    const i = index();
    const before = i.search('u1', 'dentist planning');
    for (let n = 0; n < 50; n++) i.upsert(t('b', 'Called the dentist about a cleaning', 'u1', { importance: 1 + (n % 5), version: 2 + n }));
    expect(i.tombstones).toBe(0);
    expect(i.search('u1', 'dentist planning')).toEqual(before);
    // A changed text still replaces the document.
    i.upsert(t('b', 'Called the plumber about the sink'));
    expect(i.tombstones).toBe(1);
    expect(uids(i, 'dentist')).toEqual([]);
    expect(uids(i, 'plumber')).toEqual(['b']);
    // Moving to another user is a new document too.
    i.upsert(t('a', 'Planning the meetings for next quarter', 'u2'));
    expect(uids(i, 'meetings')).toEqual([]);
    expect(uids(i, 'meetings', 'u2')).toEqual(['a']);
  });
});

describe('many edits of one text', () => {
  it('rebuild the user index with every live document and the right frequencies', () => {
    const i = index();
    const before = i.search('u1', 'dentist planning');
    for (let n = 0; n < 2500; n++) i.upsert(t('c', n % 2 ? `Swimming lessons, round ${n}` : `Tennis practice, round ${n}`));
    // The rebuilds took the tombstones away and kept the others as they were.
    expect(i.tombstones).toBeLessThan(1002);
    expect(i.search('u1', 'dentist planning')).toEqual(before);
    expect(uids(i, 'swimming')).toEqual(['c']);
    expect(uids(i, 'tennis')).toEqual([]);
    expect(uids(i, '2499')).toEqual(['c']);
    expect(i.share('u1', 'swimming')).toBeCloseTo(1 / 3);
    expect(i.share('u1', 'tennis')).toBe(0);
    expect(i.traces('u1')).toBe(3);
  });
});

describe('KeywordIndex against a model of its documents', () => {
  it('edits, moves between users and removals, through many rebuilds, find what a scan finds', () => {
    const words = ['walnut', 'harbour', 'violin', 'granite', 'meadow', 'lantern'];
    let seed = 11;
    const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const i = new KeywordIndex();
    const live = new Map<string, { user: string; text: string }>();
    for (let step = 0; step < 6000; step++) {
      const uid = `tr_${Math.floor(rnd() * 200)}`;
      if (rnd() < 0.1) {
        i.remove(uid);
        live.delete(uid);
      } else {
        const doc = { user: rnd() < 0.3 ? 'u2' : 'u1', text: `${pick(words)} ${pick(words)} note` };
        i.upsert(t(uid, doc.text, doc.user, { timestamp: new Date(Date.UTC(2031, 0, 1, 0, Math.floor(rnd() * 500))).toISOString() }));
        live.set(uid, doc);
      }
      if (step % 250 !== 0 && step !== 5999) continue;
      for (const user of ['u1', 'u2']) {
        const mine = [...live].filter(([, d]) => d.user === user);
        expect(i.traces(user), `step ${step}`).toBe(mine.length);
        for (const w of words) {
          const want = mine.filter(([, d]) => d.text.includes(w)).map(([u]) => u);
          expect(uids(i, w, user).sort(), `step ${step}, ${user}, ${w}`).toEqual(want.sort());
        }
      }
    }
    expect(i.size).toBe(live.size);
  });
});
