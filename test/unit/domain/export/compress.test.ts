import { describe, expect, it } from 'vitest';
import { compressText } from '../../../../src/domain/export/compress.js';

const words = (s: string) => s.toLowerCase().match(/[a-z0-9']+/g) ?? [];

describe('compressText (extractive)', () => {
  it.each([
    ['The goal is basically to run a very long marathon in the spring', 'goal is to run long marathon in spring'],
    ['Um, I actually slept really well.', 'I slept well.'],
    ['It was, basically, fine', 'It was, fine'],
    ['The meeting ran late. The notes are in a doc.', 'meeting ran late. notes are in doc.'],
  ])('%j → %j', (input, out) => {
    expect(compressText(input)).toBe(out);
  });

  it('keeps an intensifier after a negation: "not very" must not become "not"', () => {
    expect(compressText('The run was not very fast and I did not really enjoy it')).toBe('run was not very fast and I did not really enjoy it');
  });

  it('keeps articles that are names: Plan A, vitamin A, a trailing a', () => {
    expect(compressText('Go with Plan A today')).toBe('Go with Plan A today');
    expect(compressText('Take vitamin A')).toBe('Take vitamin A');
    expect(compressText('pick option a')).toBe('pick option a');
  });

  it('never invents: every output word is an input word, in the same order', () => {
    const inputs = [
      'Honestly the call with the dentist was kinda long, but the appointment is on Friday at 9.',
      'Remember: a 25m focus block, then the review. Totally worth it!',
      'Nothing literally happened; uh, the day was quiet.',
    ];
    for (const input of inputs) {
      const out = words(compressText(input));
      const src = words(input);
      let i = 0;
      for (const w of out) {
        while (i < src.length && src[i] !== w) i++;
        expect(i, `${w} of ${input}`).toBeLessThan(src.length);
        i++;
      }
      expect(out.length).toBeLessThan(src.length);
    }
  });

  it('a text made only of filler is kept as it is rather than vanishing', () => {
    expect(compressText('um')).toBe('um');
  });
});
