import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { liveBytes } from '../../../helpers/heap.js';
import { storedTrace } from '../../../helpers/stored-trace.js';

const TRACES = 30_000;
const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
const trace = (i: number, words = vocabulary.length) =>
  storedTrace({
    uid: `tr_${i.toString().padStart(8, '0')}`,
    user_id: 'u1',
    task_id: 'notes',
    content: Array.from({ length: 12 }, (_, w) => vocabulary[(i * 13 + w * 101) % words]).join(' '),
  });

/** The index's bytes per trace for `TRACES` traces of a dozen words drawn from `words` words. */
function perTraceOf(words: number): number {
  const traces = Array.from({ length: TRACES }, (_, i) => trace(i, words));
  const index = new KeywordIndex();
  index.upsert(traces[0]!);
  const before = liveBytes();
  for (const t of traces.slice(1)) index.upsert(t);
  const perTrace = (liveBytes() - before) / (TRACES - 1);
  expect(index.search('u1', vocabulary[13]!).length).toBeGreaterThan(0);
  expect(traces.length).toBe(TRACES);
  return perTrace;
}

/**
 * What the keyword index costs a trace of a dozen words: its slot, its postings, its place in
 * its task's timeline and its terms. About 412 bytes; each trace's terms in a typed array of
 * their own (as they once were) made it about 680. The traces themselves are made before the
 * first measure and held to the end, so only the index is counted.
 */
describe('KeywordIndex memory', () => {
  it('stays near the terms it holds (a dozen words a trace)', () => {
    expect(perTraceOf(vocabulary.length)).toBeLessThan(590);
  }, 60_000);

  /**
   * Sixty words: each a posting of thousands of traces. About 368 bytes a trace: a long posting
   * grows by pairs of arrays of 1,024 entries (src/search/indexes/posting.ts), which cost ~5 bytes
   * a trace more than growing by a quarter (363) and spare its copies. Postings that
   * doubled when full (as they once did) were half empty on average (436 bytes with the next two),
   * each timeline kept a Set of its members beside the entries that say the same (398 with the
   * next), and each user's index a Map from uid to slot where the timeline's entry now keeps it
   * (377).
   */
  it('stays near the terms it holds when the words are common (long postings)', () => {
    expect(perTraceOf(60)).toBeLessThan(378);
  }, 60_000);
});
