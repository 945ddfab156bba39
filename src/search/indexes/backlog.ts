/**
 * Writes an index has yet to take in, kept behind the commit: the latest state of each trace by
 * uid (a later write replaces an earlier one still waiting), applied a slice per turn of the event
 * loop. A commit listener only records the write, so indexing adds a constant to a request, and
 * an import of 47,000 events or the fill after a start never holds the loop in one piece.
 * A query first takes in what is left (settle), so it sees every acknowledged write.
 */
export class IndexBacklog<T> {
  private readonly pending = new Map<string, T | null>();
  /** A whole store to take in (a start, a new model): uids, each read from the store when its turn comes. */
  private fill: string[] = [];
  private fillAt = 0;
  private current?: (uid: string) => T | null;
  private scheduled = false;
  private waiters: { atMost: number; wake: () => void }[] = [];
  private stopped = false;
  /** Writes wait for the consumer's room (see `room`): resume() goes on. */
  private blocked = false;

  /**
   * `apply(uid, value)` takes one write into the index (null: the trace was deleted). Each turn
   * applies at most `sliceItems` writes and stops after about `sliceMs`. With `room`, a write is
   * applied only while it says yes (a consumer with work of its own, such as the embedding
   * pipeline, holds a bounded amount of it); the consumer calls resume() once it has room again.
   * settle() applies everything regardless.
   */
  constructor(
    private readonly apply: (uid: string, value: T | null, fromFill: boolean) => void,
    private readonly opts: { sliceMs?: number; sliceItems?: number; onError?: (e: unknown) => void; room?: () => boolean } = {},
  ) {}

  /** Writes still waiting. */
  get size(): number {
    return this.pending.size + this.fill.length - this.fillAt;
  }

  /** Whether a write of this uid is waiting (a fill still under way is not counted). */
  waiting(uid: string): boolean {
    return this.pending.has(uid);
  }

  /** A fill is still under way. */
  get filling(): boolean {
    return this.fillAt < this.fill.length;
  }

  /**
   * Take in every trace of a store (after a start, or into a new index): only the uids are
   * listed now; each trace is read by `current` when its turn comes, so a write that came
   * meanwhile is never undone by an older copy. Replaces a fill still under way.
   */
  fillFrom(uids: string[], current: (uid: string) => T | null): void {
    this.fill = uids;
    this.fillAt = 0;
    this.current = current;
    this.schedule();
  }

  /** Record a write (null: a delete); it is applied on a later turn, or by settle(). */
  add(uid: string, value: T | null): void {
    if (this.stopped) return;
    this.pending.set(uid, value);
    this.schedule();
  }

  /**
   * Drop every waiting write and take no more (the daemon is stopping): what they would have
   * changed is found again at the next start, whose fill compares every trace with the index.
   */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.fill = [];
    this.fillAt = 0;
  }

  /** Apply every waiting write now. */
  settle(): void {
    this.drain(Infinity, Infinity, true);
  }

  /** The consumer has room again: go on with the writes that waited for it. */
  resume(): void {
    if (!this.blocked) return;
    this.blocked = false;
    this.schedule();
  }

  /** Resolves once at most `atMost` writes are waiting (at once if so): then settle() is short. */
  whenBelow(atMost: number): Promise<void> {
    if (this.size <= atMost) return Promise.resolve();
    return new Promise((wake) => this.waiters.push({ atMost, wake }));
  }

  /** The consumer takes no more now (never so for settle()). */
  private full(all: boolean): boolean {
    if (all || !this.opts.room || this.opts.room()) return false;
    this.blocked = true;
    return true;
  }

  private drain(budgetMs: number, items: number, all = false): void {
    const start = performance.now();
    let n = 0;
    // Deleting the entry being visited is safe: a Map's iterator goes on with the next one.
    const run = (uid: string, value: T | null, fromFill: boolean) => {
      try {
        this.apply(uid, value, fromFill);
      } catch (e) {
        this.opts.onError?.(e);
      }
      return ++n >= items || ((n & 7) === 0 && performance.now() - start > budgetMs) || this.full(all);
    };
    let stop = this.full(all);
    if (!stop) {
      for (const [uid, value] of this.pending) {
        this.pending.delete(uid);
        if ((stop = run(uid, value, false))) break;
      }
    }
    while (!stop && this.fillAt < this.fill.length) {
      const uid = this.fill[this.fillAt++]!;
      const value = this.current!(uid);
      if (value !== null) stop = run(uid, value, true);
    }
    if (this.fillAt === this.fill.length && this.fill.length) {
      this.fill = [];
      this.fillAt = 0;
    }
    if (this.waiters.length) {
      const left = this.size;
      const ready = this.waiters.filter((w) => left <= w.atMost);
      this.waiters = this.waiters.filter((w) => left > w.atMost);
      for (const w of ready) w.wake();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.stopped || this.blocked) return;
    this.scheduled = true;
    const step = () => {
      this.drain(this.opts.sliceMs ?? 6, this.opts.sliceItems ?? 256);
      // Blocked: resume() schedules the next turn (no turn spins while the consumer is full).
      if (this.size && !this.blocked) setImmediate(step);
      else this.scheduled = false;
    };
    setImmediate(step);
  }
}
