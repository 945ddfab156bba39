import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { compareRanked, rankedKey, rankPage } from '../../../../src/domain/export/rank.js';

let seed = 42;
const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
const traces = Array.from({ length: 300 }, (_, i) => ({
  uid: `t${String(rnd(1000)).padStart(4, '0')}-${i}`,
  importance: 1 + rnd(5),
  // Many equal timestamps on purpose: ties must still give a total order.
  timestamp: new Date(Date.UTC(2031, 0, 1) + rnd(60) * 86_400_000).toISOString(),
})) as unknown as StoredTrace[];

describe('rankPage (summary order)', () => {
  it('orders everything by compareRanked: importance plus recency, ties newer then uid', () => {
    const all = rankPage(traces, traces.length);
    expect(all).toHaveLength(traces.length);
    for (let i = 1; i < all.length; i++) expect(compareRanked(all[i - 1]!, all[i]!)).toBeLessThan(0);
    // Within one importance, newer first.
    for (const imp of [1, 2, 3, 4, 5]) {
      const ts = all.filter((r) => r.trace.importance === imp).map((r) => r.trace.timestamp);
      expect(ts).toEqual([...ts].sort().reverse());
    }
  });

  it('recency can lift a fresh trace over an older, more important one, never over a 5 from the same day', () => {
    const t = (uid: string, importance: number, day: number) => ({ uid, importance, timestamp: new Date(Date.UTC(2031, 0, day)).toISOString() }) as StoredTrace;
    const order = rankPage([t('old-4', 4, 1), t('new-3', 3, 60), t('new-5', 5, 60), t('old-5', 5, 1)], 4).map((r) => r.trace.uid);
    expect(order).toEqual(['new-5', 'old-5', 'new-3', 'old-4']);
  });

  it('pages after a cursor key continue exactly where the previous page ended', () => {
    const all = rankPage(traces, traces.length).map((r) => r.trace.uid);
    for (const size of [1, 7, 100]) {
      const seen: string[] = [];
      let after: ReturnType<typeof rankedKey> | undefined;
      for (;;) {
        const page = rankPage(traces, size, after);
        if (!page.length) break;
        seen.push(...page.map((r) => r.trace.uid));
        // Through JSON, as a cursor travels.
        after = JSON.parse(JSON.stringify(rankedKey(page.at(-1)!)));
      }
      expect(seen, `page size ${size}`).toEqual(all);
    }
  });
});
