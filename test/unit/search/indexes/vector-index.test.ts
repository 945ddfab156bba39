import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../../../src/search/indexes/vector-index.js';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

/** No density penalty, no group smoothing: these tests check the scan itself, against exact cosines. */
const PLAIN_COSINE = { hubness: 0, group: 0 };

describe('VectorIndex', () => {
  it('ranks a user’s traces by cosine similarity, best first', () => {
    const i = new VectorIndex(3, PLAIN_COSINE);
    i.upsert('a', 'u1', unit(1, 0, 0));
    i.upsert('b', 'u1', unit(1, 1, 0));
    i.upsert('c', 'u1', unit(0, 0, 1));
    const hits = i.search('u1', unit(1, 0.1, 0), 10);
    expect(hits.map((h) => h.uid)).toEqual(['a', 'b', 'c']);
    expect(hits[0]!.score).toBeCloseTo(0.995, 2);
    expect(hits[2]!.score).toBeCloseTo(0, 2);
    expect(i.search('u1', unit(1, 0.1, 0), 2).map((h) => h.uid)).toEqual(['a', 'b']);
  });

  it('never returns another user’s traces', () => {
    const i = new VectorIndex(2);
    i.upsert('mine', 'u1', unit(0, 1));
    i.upsert('theirs', 'u2', unit(1, 0));
    expect(i.search('u1', unit(1, 0), 10).map((h) => h.uid)).toEqual(['mine']);
    expect(i.search('nobody', unit(1, 0), 10)).toEqual([]);
  });

  it('replaces, moves and removes vectors, reusing freed slots', () => {
    const i = new VectorIndex(2, PLAIN_COSINE);
    i.upsert('a', 'u1', unit(1, 0));
    i.upsert('a', 'u1', unit(0, 1));
    expect(i.search('u1', unit(0, 1), 1)[0]).toMatchObject({ uid: 'a' });
    expect(i.similarity('a', unit(1, 0))).toBeCloseTo(0, 2);
    i.upsert('a', 'u2', unit(0, 1));
    expect(i.search('u1', unit(0, 1), 5)).toEqual([]);
    i.upsert('a', 'u2', null);
    expect(i.has('a')).toBe(false);
    expect(i.similarity('a', unit(0, 1))).toBeUndefined();
    i.remove('nothing');
    expect(i.size).toBe(0);
  });

  it('grows past its first block and keeps every vector', () => {
    const i = new VectorIndex(2, PLAIN_COSINE);
    for (let k = 0; k < 500; k++) i.upsert(`t${k}`, 'u', unit(Math.cos(k / 100), Math.sin(k / 100)));
    for (let k = 0; k < 500; k += 2) i.remove(`t${k}`);
    for (let k = 500; k < 700; k++) i.upsert(`t${k}`, 'u', unit(1, 0));
    expect(i.size).toBe(450);
    expect(i.search('u', unit(Math.cos(3.01), Math.sin(3.01)), 1)[0]!.uid).toBe('t301');
  });

  it('applies the filter to candidates and still fills the top k', () => {
    const i = new VectorIndex(2, PLAIN_COSINE);
    for (let k = 0; k < 50; k++) i.upsert(`t${k}`, 'u', unit(1, k / 10));
    const hits = i.search('u', unit(1, 0), 5, (uid) => Number(uid.slice(1)) % 2 === 1);
    expect(hits.map((h) => h.uid)).toEqual(['t1', 't3', 't5', 't7', 't9']);
  });

  it('scans with WebAssembly SIMD and ranks exactly like plain cosine similarity', async () => {
    const { simdModule } = await import('../../../../src/search/indexes/simd-scan.js');
    expect(simdModule()).not.toBeNull();
    let seed = 7;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const dims = 100; // not a multiple of 16: rows are padded
    const i = new VectorIndex(dims, PLAIN_COSINE);
    const vs = Array.from({ length: 3000 }, (_, k) => {
      const v = unit(...Array.from({ length: dims }, rand));
      i.upsert(`t${k}`, 'u', v);
      return v;
    });
    const q = unit(...Array.from({ length: dims }, rand));
    const exact = vs.map((v, k) => ({ uid: `t${k}`, score: v.reduce((s, x, d) => s + x * q[d]!, 0) })).sort((a, b) => b.score - a.score);
    const hits = i.search('u', q, 20);
    const truth = new Map(exact.map((h) => [h.uid, h.score]));
    // int8 rows and an int16 query: scores within 0.01, so only near-ties may swap places.
    for (const h of hits) expect(Math.abs(h.score - truth.get(h.uid)!)).toBeLessThan(0.01);
    const top = new Set(exact.slice(0, 20).map((h) => h.uid));
    expect(hits.filter((h) => top.has(h.uid)).length).toBeGreaterThanOrEqual(18);
    expect(hits[0]!.uid).toBe(exact[0]!.uid);
  });

  it('ranks a trace that stands alone above one of a crowd of look-alikes it barely beats on cosine', () => {
    const i = new VectorIndex(3);
    // Five near-copies of one routine note, and one distinct trace a little further from the query.
    for (let k = 0; k < 5; k++) i.upsert(`routine${k}`, 'u', unit(1, 0.02 * k, 0.3));
    i.upsert('answer', 'u', unit(1, 0.5, -0.3));
    const q = unit(1, 0.2, 0);
    const cos = (v: Float32Array) => v.reduce((s, x, d) => s + x * q[d]!, 0);
    expect(cos(unit(1, 0.04, 0.3))).toBeGreaterThan(cos(unit(1, 0.5, -0.3)));
    const hits = i.search('u', q, 6);
    expect(hits[0]!.uid).toBe('answer');
    expect(i.similarity('answer', q)).toBeCloseTo(hits[0]!.score, 3);
    // Without the penalty the crowd wins, as plain cosine says.
    const plain = new VectorIndex(3, PLAIN_COSINE);
    for (let k = 0; k < 5; k++) plain.upsert(`routine${k}`, 'u', unit(1, 0.02 * k, 0.3));
    plain.upsert('answer', 'u', unit(1, 0.5, -0.3));
    expect(plain.search('u', q, 6)[0]!.uid).not.toBe('answer');
  });

  it('lifts a trace far from all others by a bounded amount only', async () => {
    const { HUBNESS_WEIGHT, LIFT_LIMIT } = await import('../../../../src/search/indexes/neighbor-density.js');
    const i = new VectorIndex(3, { hubness: HUBNESS_WEIGHT, group: 0 });
    for (let k = 0; k < 10; k++) i.upsert(`crowd${k}`, 'u', unit(0.01 * k, 1, 0));
    i.upsert('outlier', 'u', unit(0.3, 0, 1));
    const q = unit(1, 0, 0);
    const cos = unit(0.3, 0, 1)[0]!;
    const lifted = i.similarity('outlier', q)!;
    expect(lifted).toBeGreaterThan(cos);
    expect(lifted).toBeLessThanOrEqual(cos + HUBNESS_WEIGHT * LIFT_LIMIT + 0.01);
  });

  it('ranks the same after a bulk load once its densities are measured in the background', () => {
    let seed = 3;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const rows = Array.from({ length: 300 }, (_, k) => ({ uid: `t${k}`, userId: 'u', vector: unit(...Array.from({ length: 8 }, rand)), group: `g${k % 7}` }));
    const one = new VectorIndex(8);
    for (const r of rows) one.upsert(r.uid, r.userId, r.vector, r.group);
    const bulk = new VectorIndex(8);
    bulk.load(rows);
    const q = unit(...Array.from({ length: 8 }, rand));
    // Before measuring, rows carry no density penalty: plain cosine blended with the group.
    expect(bulk.measurePending(10)).toBe(true);
    while (bulk.measurePending(50));
    const a = bulk.search('u', q, 10);
    const b = one.search('u', q, 10);
    // Same hits; scores agree to the int8 rounding of the stored rows the bulk path measures from.
    expect(a.map((h) => h.uid)).toEqual(b.map((h) => h.uid));
    a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 2));
  });

  it('forgets a removed trace’s density and keeps scores finite when a user has a single trace', () => {
    const i = new VectorIndex(2);
    i.upsert('only', 'u', unit(1, 0));
    expect(i.search('u', unit(1, 0), 1)[0]!.score).toBeCloseTo(1, 2);
    i.upsert('other', 'u', unit(1, 0.1));
    i.remove('other');
    expect(Number.isFinite(i.search('u', unit(1, 0), 1)[0]!.score)).toBe(true);
  });

  it('refuses vectors of another size', () => {
    expect(() => new VectorIndex(3).upsert('a', 'u', unit(1, 0))).toThrow(/2 dimensions/);
  });
});
