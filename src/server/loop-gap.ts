import { readFileSync } from 'node:fs';

/**
 * How long the event loop was held: a timer that should fire every `intervalMs` records the
 * largest gap between two of its ticks. A request that keeps the loop busy for 300 ms shows as a
 * gap of about 300 ms, whatever the request was. Read by `GET /debug/event-loop` (DEBUG only),
 * which tests and the bench use to check that no request holds the loop past the bound.
 *
 * On a loaded machine a gap also holds time the thread was ready but waiting for a CPU (other
 * processes ran). Linux counts that wait per thread in /proc/thread-self/schedstat, so each gap is
 * also measured without it: `worst_hold_ms` is the most the daemon itself held the loop (running,
 * or blocked in a call), what the gap would have been on an idle machine.
 */
export class LoopGapMonitor {
  private timer?: NodeJS.Timeout;
  private last = 0;
  private lastWait = 0;
  private worstGap = 0;
  private worstHold = 0;
  private ticks = 0;
  private since = Date.now();
  private readonly schedstat = readWaitNs() !== undefined;

  constructor(readonly intervalMs = 5) {}

  /** Start ticking (idempotent). The timer is unref'd: it never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.last = performance.now();
    this.lastWait = readWaitNs() ?? 0;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    const wait = this.schedstat ? (readWaitNs() ?? this.lastWait) : 0;
    const gap = now - this.last;
    this.worstGap = Math.max(this.worstGap, gap);
    this.worstHold = Math.max(this.worstHold, gap - (wait - this.lastWait) / 1e6);
    this.last = now;
    this.lastWait = wait;
    this.ticks++;
  }

  /** The worst gaps since the previous read (or the start), and start a new window. */
  read(): { worst_gap_ms: number; worst_hold_ms: number; hold_measured: 'schedstat' | 'wall'; interval_ms: number; ticks: number; since: string } {
    // A gap still open (the loop held right up to this read) counts too.
    if (this.timer) this.tick();
    const round = (x: number) => Math.round(x * 10) / 10;
    const out = {
      worst_gap_ms: round(this.worstGap),
      worst_hold_ms: round(this.schedstat ? this.worstHold : this.worstGap),
      hold_measured: this.schedstat ? ('schedstat' as const) : ('wall' as const),
      interval_ms: this.intervalMs,
      ticks: this.ticks,
      since: new Date(this.since).toISOString(),
    };
    this.worstGap = this.worstHold = this.ticks = 0;
    this.since = Date.now();
    return out;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Nanoseconds this thread has spent ready to run but waiting for a CPU (Linux), or undefined. */
function readWaitNs(): number | undefined {
  try {
    const wait = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]);
    return Number.isFinite(wait) ? wait : undefined;
  } catch {
    return undefined;
  }
}
