import { describe, expect, it } from 'vitest';
import { ExportCache } from '../../../../src/domain/export/cache.js';
import { Commit } from '../../../../src/store/commit.js';
import type { JournalOp } from '../../../../src/store/journal.js';

/** What the store hands followers after a transaction of these operations. */
const commitOf = (ops: JournalOp[]) => new Commit(ops);

function clock(start = 0) {
  const c = { ms: start, now: () => new Date(c.ms) };
  return c;
}

describe('ExportCache', () => {
  it('expires after its lifetime, or earlier when asked', () => {
    const c = clock();
    const cache = new ExportCache(15 * 60_000, c);
    cache.set('u1', 'k', 'v');
    cache.set('u1', 'short', 'v', 1000);
    c.ms = 999;
    expect(cache.get('u1', 'short')).toBe('v');
    c.ms = 1000;
    expect(cache.get('u1', 'short')).toBeUndefined();
    c.ms = 15 * 60_000 - 1;
    expect(cache.get('u1', 'k')).toBe('v');
    c.ms = 15 * 60_000;
    expect(cache.get('u1', 'k')).toBeUndefined();
  });

  it.each([
    ['a trace', 'traces'],
    ['a trace version', 'trace_versions'],
    ['an event', 'events'],
    ['a tempo profile', 'tempo_profiles'],
    ['a user record', 'users'],
    ['a plan', 'plans'],
  ])("a write to %s clears that user's entries only", (_what, c) => {
    const cache = new ExportCache(60_000, clock());
    cache.set('u1', 'k', 'v1');
    cache.set('u2', 'k', 'v2');
    cache.invalidate(commitOf([{ op: 'put', c, doc: { user_id: 'u1' } }]));
    expect(cache.get('u1', 'k')).toBeUndefined();
    expect(cache.get('u2', 'k')).toBe('v2');
  });

  it('keys, checkpoints and meta writes change no export', () => {
    const cache = new ExportCache(60_000, clock());
    cache.set('u1', 'k', 'v');
    cache.invalidate(
      commitOf([
        { op: 'put', c: 'api_keys', doc: { id: 'key_1', user_id: 'u1' } },
        { op: 'put', c: 'checkpoints', doc: { id: 'cp_1', user_id: 'u1' } },
        { op: 'meta', k: 'x', v: 1 },
      ]),
    );
    expect(cache.get('u1', 'k')).toBe('v');
  });

  it('a delete, whose owner is unknown, clears every user', () => {
    const cache = new ExportCache(60_000, clock());
    cache.set('u1', 'k', 'v1');
    cache.set('u2', 'k', 'v2');
    cache.invalidate(commitOf([{ op: 'del', c: 'events', id: 'ev_1' }]));
    expect(cache.get('u1', 'k')).toBeUndefined();
    expect(cache.get('u2', 'k')).toBeUndefined();
  });

  it('keeps at most maxPerUser entries, dropping the least recently used', () => {
    const cache = new ExportCache(60_000, clock(), 2);
    cache.set('u', 'a', 1);
    cache.set('u', 'b', 2);
    cache.get('u', 'a');
    cache.set('u', 'c', 3);
    expect(cache.get('u', 'b')).toBeUndefined();
    expect(cache.get('u', 'a')).toBe(1);
    expect(cache.get('u', 'c')).toBe(3);
  });
});
