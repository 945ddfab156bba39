import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The JS heap and the typed arrays' data outside it. */
const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const TRACES = 30_000;
const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
const trace = (i: number): StoredTrace => ({
  uid: `tr_${i.toString().padStart(8, '0')}`,
  user_id: 'u1',
  type: 'observation',
  task_id: 'notes',
  timestamp: '2031-01-01T00:00:00.000Z',
  content: Array.from({ length: 12 }, (_, w) => vocabulary[(i * 13 + w * 101) % vocabulary.length]).join(' '),
  importance: 3,
  version: 1,
  linked_trace_ids: [],
  child_trace_ids: [],
  authored_by: 'u1',
  created_at: '2031-01-01T00:00:00.000Z',
  updated_at: '2031-01-01T00:00:00.000Z',
});

/**
 * What the keyword index costs a trace of a dozen words: its slot, its postings and its terms.
 * Each trace's terms in a typed array of their own cost about 300 bytes of array objects and
 * allocator records besides the data; kept back to back, the whole is well under that. The
 * traces themselves are made before the first measure, so only the index is counted.
 */
describe('KeywordIndex memory', () => {
  it('stays near the terms it holds (a dozen words a trace)', () => {
    const traces = Array.from({ length: TRACES }, (_, i) => trace(i));
    const index = new KeywordIndex();
    index.upsert(traces[0]!);
    const before = used();
    for (const t of traces.slice(1)) index.upsert(t);
    const perTrace = (used() - before) / (TRACES - 1);
    expect(index.search('u1', vocabulary[13]!).length).toBeGreaterThan(0);
    expect(perTrace).toBeLessThan(240);
  }, 60_000);
});
