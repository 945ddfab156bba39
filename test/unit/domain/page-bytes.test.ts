import { describe, expect, it } from 'vitest';
import { jsonBytes, pageFit } from '../../../src/domain/page-bytes.js';

describe('pageFit', () => {
  const sized = (n: number) => 'x'.repeat(n);

  it('keeps every item that fits and cuts before the first that does not', () => {
    const items = [sized(300_000), sized(300_000), sized(300_000)];
    expect(pageFit(items, jsonBytes, 1_000_000)).toBe(3);
    expect(pageFit(items, jsonBytes, 700_000)).toBe(2);
  });

  it('sends an item larger than the budget alone in its page', () => {
    const items = [sized(2_000_000), sized(10)];
    expect(pageFit(items, jsonBytes, 1_000_000)).toBe(1);
    expect(pageFit([sized(10), sized(2_000_000)], jsonBytes, 1_000_000)).toBe(1);
  });

  it('counts bytes, not characters', () => {
    expect(jsonBytes('é'.repeat(10))).toBe(22);
    expect(pageFit(['é'.repeat(300_000), 'é'.repeat(300_000)], jsonBytes, 1_000_000)).toBe(1);
  });

  it('measures only up to the cut', () => {
    let measured = 0;
    pageFit(
      Array.from({ length: 100 }, () => sized(400_000)),
      (s) => {
        measured++;
        return jsonBytes(s);
      },
      1_000_000,
    );
    expect(measured).toBe(3);
  });
});
