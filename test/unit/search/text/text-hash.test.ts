import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { keywordTag } from '../../../../src/search/indexes/keyword-index.js';
import { textHash } from '../../../../src/search/text/text-hash.js';

// Persisted search files hold these hashes: a change to either function turns every row of every
// saved index stale, and the next start indexes a whole memory again.
describe('the hashes persisted search files hold', () => {
  it('textHash keeps its values', () => {
    expect(textHash('')).toBe(3338908027751811);
    expect(textHash('Found a quillwort growing at the edge of the pond')).toBe(1924332544796739);
  });

  it("a trace's keyword tag keeps its value", () => {
    const t = { uid: 'x', user_id: 'usr_1', content: 'Repotted the fern', task_id: 'garden', tempo_tag: '@morning', type: 'observation' };
    expect(keywordTag(t as unknown as StoredTrace)).toBe(5152769417495278);
  });
});
