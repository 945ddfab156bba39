import { describe, expect, it } from 'vitest';
import { fuseHybrid, KEYWORD_WEIGHT, semanticCut } from '../../../../src/domain/memory/fuse.js';

describe('hybrid fusion', () => {
  const sims: Record<string, number> = { kw: 0.2, both: 0.8, sem: 0.9 };
  const similarity = (uid: string) => sims[uid];

  it('gives one score in [0,1], best first, rewarding agreement of both sides', () => {
    const fused = fuseHybrid(
      [
        { uid: 'both', score: 10, coverage: 1 },
        { uid: 'kw', score: 12, coverage: 1 },
      ],
      [
        { uid: 'sem', score: 0.9 },
        { uid: 'both', score: 0.8 },
      ],
      similarity,
    );
    expect(fused.map((h) => h.uid)).toEqual(['both', 'sem', 'kw']);
    for (const h of fused) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
    // keyword-only hits still get their semantic similarity.
    expect(fused.find((h) => h.uid === 'kw')!.semantic).toBeCloseTo(0.2);
    expect(fused[0]!.score).toBeCloseTo(KEYWORD_WEIGHT * (10 / 12) + (1 - KEYWORD_WEIGHT) * 0.8, 5);
  });

  it('discounts keyword hits that match only part of the query', () => {
    const fused = fuseHybrid(
      [
        { uid: 'a', score: 10, coverage: 0.25 },
        { uid: 'b', score: 8, coverage: 1 },
      ],
      [
        { uid: 'a', score: 0.5 },
        { uid: 'b', score: 0.5 },
      ],
      () => 0.5,
    );
    expect(fused.map((h) => h.uid)).toEqual(['b', 'a']);
  });

  it('is the keyword score alone when the query has no semantic signal', () => {
    const fused = fuseHybrid([{ uid: 'x', score: 3, coverage: 1 }], [], () => undefined);
    expect(fused).toEqual([{ uid: 'x', score: 1, keyword: 1, semantic: 0 }]);
  });

  it('drops traces found by meaning alone that fall far below the best, never literal matches', () => {
    const fused = fuseHybrid(
      [
        { uid: 'lit', score: 5, coverage: 1 },
        { uid: 'weak-lit', score: 1, coverage: 0.5 },
      ],
      [
        { uid: 'lit', score: 0.6 },
        { uid: 'near', score: 0.9 },
        { uid: 'far', score: 0.3 },
      ],
      (uid) => ({ lit: 0.6, 'weak-lit': 0.1, near: 0.9, far: 0.3 })[uid],
    );
    expect(fused.map((h) => h.uid)).toEqual(['lit', 'near', 'weak-lit']);
    expect(fused[0]!.semantic).toBeCloseTo(0.6);
  });
});

describe('semantic cut', () => {
  it('keeps positive hits within 70% of the best', () => {
    const hits = [0.8, 0.6, 0.5, -0.1].map((score, i) => ({ uid: `h${i}`, score }));
    expect(semanticCut(hits).map((h) => h.uid)).toEqual(['h0', 'h1']);
    expect(semanticCut([])).toEqual([]);
  });
});
