import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { decodePullCursor, pullCursor } from '../../../../src/domain/memory/pull.js';
import { fitTokens, loadTokenizer, summarizeTrace } from '../../../../src/domain/memory/summarize.js';

describe('summarizeTrace', () => {
  it('collapses whitespace and marks tempo and high importance', () => {
    expect(summarizeTrace({ content: '  Lunch\n\n with   Ana ', importance: 3 })).toBe('Lunch with Ana');
    expect(summarizeTrace({ content: 'Ship it', importance: 5, tempo_tag: '@deep-work', notes: 'went well' })).toBe(
      '[@deep-work !5] Ship it (note: went well)',
    );
  });

  it('cuts long content at a word boundary', () => {
    const s = summarizeTrace({ content: 'word '.repeat(200), importance: 3 });
    expect(s.length).toBeLessThanOrEqual(280);
    expect(s).toMatch(/word…$/);
  });
});

describe('fitTokens', () => {
  it('counts o200k tokens and cuts to the budget', async () => {
    const tk = await loadTokenizer();
    const text = 'The quick brown fox jumps over the lazy dog, again and again, until the evening. '.repeat(5);
    expect(fitTokens(tk, text)).toEqual({ text, tokens: countTokens(text), shortened: false });
    for (const budget of [3, 10, 25]) {
      const f = fitTokens(tk, text, budget);
      expect(f.shortened).toBe(true);
      expect(f.tokens).toBe(countTokens(f.text));
      expect(f.tokens).toBeLessThanOrEqual(budget);
      expect(f.text.endsWith('…')).toBe(true);
    }
    expect(fitTokens(tk, 'Ünïcödé ✓ emoji 🎉🎉🎉 text', 4).tokens).toBeLessThanOrEqual(4);
  });
});

describe('pull cursor', () => {
  it('round-trips and refuses garbage with 422', () => {
    const c = pullCursor({ timestamp: '2031-01-01T00:00:00.000Z', uid: 'a' } as never);
    expect(decodePullCursor(c)).toEqual({ timestamp: '2031-01-01T00:00:00.000Z', uid: 'a' });
    expect(() => decodePullCursor('garbage')).toThrow(expect.objectContaining({ status: 422 }));
  });
});
