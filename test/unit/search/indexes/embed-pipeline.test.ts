import { describe, expect, it } from 'vitest';
import { EmbedPipeline } from '../../../../src/search/indexes/embed-pipeline.js';

/** Hold the thread for `ms` (a result as slow to apply as one at a million rows). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('EmbedPipeline', () => {
  it('applies slow results a few per turn, so requests queued behind them wait little', async () => {
    const perTurn: number[] = [];
    let inTurn = false;
    const pipeline = new EmbedPipeline<string>(
      () => undefined,
      (text) => text,
      () => new Float32Array(4),
      () => {
        // Results applied in one synchronous stretch share a turn: a microtask ends it.
        if (!inTurn) {
          inTurn = true;
          perTurn.push(0);
          queueMicrotask(() => {
            inTurn = false;
          });
        }
        perTurn[perTurn.length - 1]!++;
        busy(3);
      },
    );
    for (let i = 0; i < 24; i++) pipeline.add({ uid: `tr_${i}`, value: `text ${i}`, tag: 0, fromFill: false });
    while (pipeline.size) await pipeline.progress();
    expect(perTurn.reduce((a, b) => a + b, 0)).toBe(24);
    // A turn's budget is 4 ms: a second 3 ms result passes it, and the turn ends there.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(2);
  });
});
