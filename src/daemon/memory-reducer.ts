import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';

export interface MemoryReducerOptions {
  /** How often the loop's business and the heap are looked at. */
  everyMs?: number;
  /** Quiet looks in a row before a collection: the daemon has gone idle, not paused between two requests. */
  quietLooks?: number;
  /** Share of a look's time the event loop may have been busy and still count as quiet. */
  quietShare?: number;
  /** Collect once the heap and buffers hold this much more than after the last collection… */
  minGrowthBytes?: number;
  /** …and this share more. */
  growthShare?: number;
  /**
   * Never collect below this footprint: a small daemon (the tests', a home of a few thousand
   * traces) has little to give back, and a pause for nothing could land in a request after all.
   */
  minFootprintBytes?: number;
  /** Told after each collection: the footprint before and the time it took. */
  onCollect?: (info: { beforeBytes: number; ms: number }) => void;
}

export interface MemoryReducer {
  /** Collections made so far. */
  readonly collections: number;
  stop(): void;
}

/**
 * V8's collection of all it can, returning the freed pages to the system: what DevTools' "collect
 * garbage" does (V8's low-memory notification), through an in-process inspector session (no port
 * is opened). A plain full collection (`gc()` of --expose-gc) frees the objects but leaves the old
 * generation's pages fragmented and resident (figures: bench/README.md).
 */
function collectAll(): Promise<void> {
  // Connected only for the call (the answer comes in a later turn): none is left behind.
  const session = new Session();
  session.connect();
  return new Promise((done) =>
    session.post('HeapProfiler.collectGarbage', () => {
      // Not from inside the session's own callback: that deadlocks the thread.
      setImmediate(() => {
        session.disconnect();
        done();
      });
    }),
  );
}

/** What a full collection can give back: the JS heap in use (garbage included) and buffers outside it. */
function footprint(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * A full garbage collection once the daemon goes idle holding much more memory than it held live
 * after the previous one. V8 collects its old generation only when that grows past a limit set
 * from the live size at the last collection, by a factor of up to 4 on a machine with memory to
 * spare, and its own idle-time reducer does not run in the daemon: the text of db.json, the
 * objects JSON.parse made before the store interned and shared them, and the persisted search
 * file behind it are garbage that stays resident through idling and load. The pause (the one
 * deliberate one, docs/security.md) falls where the event loop has been quiet for `quietLooks`
 * looks in a row, so it does not land in a burst of requests, and never in a small daemon
 * (`minFootprintBytes`).
 */
export function startMemoryReducer(o: MemoryReducerOptions = {}): MemoryReducer {
  const everyMs = o.everyMs ?? 200;
  const quietLooks = o.quietLooks ?? 2;
  // A loaded daemon's loop is busy most of the time; an idle daemon on a busy machine still
  // waits for a CPU now and then, so "quiet" allows a quarter of the time busy.
  const quietShare = o.quietShare ?? 0.25;
  const minGrowth = o.minGrowthBytes ?? 48 * 2 ** 20;
  const growthShare = o.growthShare ?? 0.25;
  const minFootprint = o.minFootprintBytes ?? 192 * 2 ** 20;
  // Nothing is known live until the first collection: the first quiet spell after a start makes one.
  let live = 0;
  let measureLive = false;
  let quiet = 0;
  let collections = 0;
  let last = performance.eventLoopUtilization();
  let collecting = false;
  const look = () => {
    if (collecting) return;
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (measureLive) {
      // A buffer's memory is released by V8's sweeper after the collection, not in it: read once it has.
      live = footprint();
      measureLive = false;
    }
    if (busy > quietShare) {
      quiet = 0;
      return;
    }
    if (++quiet < quietLooks) return;
    const before = footprint();
    if (before < minFootprint || before - live < Math.max(minGrowth, live * growthShare)) return;
    const t = performance.now();
    collecting = true;
    void collectAll().then(() => {
      collecting = false;
      collections++;
      quiet = 0;
      measureLive = true;
      last = performance.eventLoopUtilization();
      o.onCollect?.({ beforeBytes: before, ms: performance.now() - t });
    });
  };
  const timer = setInterval(look, everyMs);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
