import { nextTurn } from './next-turn.js';

/**
 * Cooperative slicing for work that runs on the event loop (no request may hold the loop for more
 * than 100 ms: docs/architecture.md, "Runtime rules"). A long loop asks `slice.due` between two
 * items and, once the slice has run its share, awaits `slice.yield()`: other requests, timers and
 * I/O run, then it goes on.
 */

/** A turn's share of work: well under the 100 ms bound, so a machine twice as slow keeps it. */
export const SLICE_MS = 15;

/** What a slice stops while the loop is given back (an ExpansionBudget). */
interface Pausable {
  pause(): void;
  resume(): void;
}

/** One stretch of work between two yields. */
export class TurnSlice {
  private start = performance.now();

  /** `clock`, when given, does not run while the loop is given back. */
  constructor(
    readonly ms = SLICE_MS,
    private readonly clock?: Pausable,
  ) {}

  /** Whether this stretch has run its share. */
  get due(): boolean {
    return performance.now() - this.start >= this.ms;
  }

  /** Give the loop back, and start a new stretch. */
  async yield(): Promise<void> {
    this.clock?.pause();
    await nextTurn();
    this.clock?.resume();
    this.start = performance.now();
  }

  /** Yield only if the stretch has run its share. */
  async maybeYield(): Promise<void> {
    if (this.due) await this.yield();
  }
}
