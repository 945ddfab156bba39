import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../../src/search/indexes/keyword-index.js';
import { BuiltinEmbedder } from '../../../src/search/models/builtin-embedder.js';
import { COMMON_MIN_TRACES, telling } from '../../../src/search/semantic-search.js';
import type { WordVectors } from '../../../src/search/vectors/word-vectors-file.js';
import { storedTrace } from '../../helpers/stored-trace.js';

const trace = (uid: string, content: string) => storedTrace({ uid, user_id: 'u1', task_id: 'chat', content });

// A memory about one person: her name is in nearly every trace, the topic in one.
const TRACES = [
  trace('a', 'Anna: thanks, see you'),
  trace('b', 'Anna: sure thing'),
  trace('c', 'Anna: talked about her class'),
  trace('d', 'Anna: haha yes'),
  trace('e', 'Ben: the ceramics studio'),
  ...Array.from({ length: 95 }, (_, i) => trace(`x${i}`, `Anna: fine ${i}`)),
];

/** A tiny vocabulary where "anna" is a rare word (heavy in SIF) and "ceramics" is near "pottery". */
function embedder(): BuiltinEmbedder {
  const vocab: [string, number[]][] = [
    ['thanks', [0, 0, 1, 0]],
    ['see', [0, 0, 1, 0]],
    ['sure', [0, 0, 1, 0]],
    ['thing', [0, 0, 1, 0]],
    ['haha', [0, 0, 1, 0]],
    ['yes', [0, 0, 1, 0]],
    ['fine', [0, 0, 1, 0]],
    ['talked', [0, 0, 0.5, 0.5]],
    ['class', [0, 0.3, 0, 1]],
    ['pottery', [0, 1, 0, 0]],
    ['ceramics', [0, 0.95, 0, 0.1]],
    ['studio', [0, 0.5, 0, 0.5]],
    ['ben', [0, 0, 0, 1]],
    ['anna', [1, 0, 0, 0]],
  ];
  const wv: WordVectors = {
    header: { format: 1, dims: 4, count: vocab.length, source: 'test@1' },
    words: vocab.map(([w]) => w),
    scales: new Float32Array(vocab.length).fill(1 / 100),
    values: Int8Array.from(vocab.flatMap(([, v]) => v.map((x) => Math.round(x * 100)))),
  };
  return new BuiltinEmbedder(wv);
}

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the telling words of a query', () => {
  const index = new KeywordIndex();
  for (const t of TRACES) index.upsert(t);
  const share = (w: string) => index.share('u1', w);
  const n = index.traces('u1');

  it("measures a word's share of the user's traces by its stem", () => {
    expect(share('Anna')).toBeCloseTo(99 / 100);
    expect(share('classes')).toBeCloseTo(1 / 100);
    expect(share('unknown')).toBe(0);
    expect(index.share('nobody', 'anna')).toBe(0);
  });

  it('leaves out of the query the words most traces contain', () => {
    expect(telling('What did Anna say about ceramics?', share, n)).toBe('say ceramics');
  });

  it('counts no word common in a memory of fewer than COMMON_MIN_TRACES traces', () => {
    expect(n).toBe(100);
    expect(telling('What did Anna say about ceramics?', share, COMMON_MIN_TRACES - 1)).toBe('What did Anna say about ceramics?');
  });

  it('keeps a query whole when every word is common or none is', () => {
    expect(telling('Anna?', share, n)).toBe('Anna?');
    expect(telling('ceramics studio', share, n)).toBe('ceramics studio');
  });

  it('finds the trace on the topic, where the whole query finds one of the common word', () => {
    const m = embedder();
    const rank = (q: string) => {
      const v = m.embed(q)!;
      return TRACES.map((t) => ({ uid: t.uid, s: cos(v, m.embed(t.content)!) })).sort((a, b) => b.s - a.s)[0]!.uid;
    };
    const q = 'What did Anna say about ceramics?';
    expect(rank(q)).not.toBe('e');
    expect(rank(telling(q, share, n))).toBe('e');
  });
});
