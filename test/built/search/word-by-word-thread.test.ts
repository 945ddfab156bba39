import { describe, expect, it } from 'vitest';
import type { SemanticAnswer } from '../../../src/domain/memory/search-port.js';
import { builtinSpaces } from '../../helpers/builtin-space.js';
import { storedTrace } from '../../helpers/stored-trace.js';

// Semantic mode's word-by-word rescoring runs on the embedding thread; without one (or once it
// failed) on the event loop. Both must rank alike, and a thread that dies mid-query is replaced.

const TEXTS = [
  'after the long drive we finally tried a ceramics workshop on sunday',
  'I went to the art gallery and the museum downtown',
  'the garden needs watering and the fence is broken',
  'the car is back from the mechanic with new tyres',
  'the rent went up again this year',
  'booked flights to Lisbon for the spring holiday',
];

const open = builtinSpaces();
async function space(inline: boolean) {
  const { store, s, search, close } = await open(inline);
  await store.transact((tx) => TEXTS.forEach((content, i) => tx.put('traces', storedTrace({ uid: `t${i}`, task_id: 'chat', content }))));
  return { s, search, close };
}

const ranked = (a: SemanticAnswer) => (a.available ? a.hits.map((h) => [h.uid, Number(h.score.toFixed(5))]) : []);

describe('word-by-word rescoring', () => {
  it('ranks alike on the embedding thread and on the event loop, and changes the order of the scan', async () => {
    const alone = await space(true);
    const threaded = await space(false);
    try {
      const byWord = await threaded.search.search('u', 'pottery', 10, () => true, { wordByWord: true });
      expect(threaded.s.embeddingThread?.running).toBe(true);
      expect(ranked(byWord)).toEqual(ranked(await alone.search.search('u', 'pottery', 10, () => true, { wordByWord: true })));
      expect(ranked(byWord)[0]![0]).toBe('t0');
      // The scan alone ranks the turn about art first.
      expect(ranked(await threaded.search.search('u', 'pottery', 10, () => true))[0]![0]).toBe('t1');
    } finally {
      await Promise.all([alone.close(), threaded.close()]);
    }
  });

  it('answers when the thread dies during the query', async () => {
    const x = await space(false);
    try {
      await x.search.search('u', 'pottery', 10, () => true);
      const answer = x.search.search('u', 'pottery', 10, () => true, { wordByWord: true });
      await x.s.embeddingThread!.crash();
      expect(ranked(await answer)[0]![0]).toBe('t0');
    } finally {
      await x.close();
    }
  });
});
