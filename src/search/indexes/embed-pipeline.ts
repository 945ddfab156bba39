import type { EmbedWorker } from '../workers/embed-worker.js';

/**
 * One write to embed: what it was (handed back to `apply`) and the hash of its text. The text is
 * made from the value when the job is sent (textOf): a backlog of long traces holds no copy of
 * their texts.
 */
export interface EmbedJob<T> {
  uid: string;
  value: T;
  tag: number;
  fromFill: boolean;
}

interface Sent<T> extends EmbedJob<T> {
  seq: number;
}

/** Texts per message to the thread. */
const BATCH = 128;
/** Messages out at once: the thread always has the next one, and the texts sent stay a few batches' worth. */
const IN_FLIGHT = 2;
/**
 * Jobs the pipeline holds at once (waiting, out on the thread, back and not applied yet) before
 * it says it has no room: the writes of a fill stay in its backlog, as uids, until it has, so a
 * large home's build never holds a job and a vector per trace.
 */
export const PIPELINE_ROOM = (IN_FLIGHT + 2) * BATCH;
/** Results applied per turn of the event loop, and the time after which a turn stops early. */
const APPLY_ITEMS = 64;
const APPLY_MS = 4;

/**
 * Writes on their way through the embedding thread (workers/embed-worker.ts) and back into an
 * index: sent in batches, their vectors applied on this thread a slice per turn, in the order the
 * writes came. Only a uid's newest write is applied: a result whose write was overtaken (a later
 * edit, a delete, or a write taken in directly, see forget) is dropped, so a slow batch or a
 * thread that died and ran its batches again never puts an older text back. When the thread has
 * failed for good, the texts are embedded on this thread instead (`inline`).
 */
export class EmbedPipeline<T> {
  /** uid → the sequence number of its newest job still under way. */
  private readonly latest = new Map<string, number>();
  private seq = 0;
  private outgoing: Sent<T>[] = [];
  /** Results to apply, from `readyAt` on (a head index: no shift() per result; the applied head is cut off a batch at a time). */
  private ready: { job: Sent<T>; vector: Float32Array | null }[] = [];
  private readyAt = 0;
  private inFlight = 0;
  /** Jobs of a fill (fromFill) added and not through yet. */
  fillJobs = 0;
  private flushing = false;
  private applying = false;
  /** Bumped by reset(): results of an older generation are thrown away. */
  private generation = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly worker: () => EmbedWorker | undefined,
    private readonly textOf: (value: T) => string,
    private readonly inline: (text: string) => Float32Array | null,
    private readonly apply: (job: EmbedJob<T>, vector: Float32Array | null) => void,
    private readonly onError?: (e: unknown) => void,
    /** Called when jobs were applied or dropped: the pipeline may have room again. */
    private readonly onRoom?: () => void,
  ) {}

  /** Jobs added and not applied yet. */
  get size(): number {
    return this.outgoing.length + this.inFlight + this.ready.length - this.readyAt;
  }

  /** Fewer than PIPELINE_ROOM jobs are held: a backlog may hand over more. */
  get room(): boolean {
    return this.size < PIPELINE_ROOM;
  }

  add(job: EmbedJob<T>): void {
    const seq = ++this.seq;
    this.latest.set(job.uid, seq);
    if (job.fromFill) this.fillJobs++;
    this.outgoing.push({ ...job, seq });
    this.scheduleFlush();
  }

  /** The uid's newest write was taken in some other way (deleted, reused, unchanged): drop its jobs under way. */
  forget(uid: string): void {
    this.latest.delete(uid);
  }

  /** Drop everything under way (the index it fed was replaced). */
  reset(): void {
    this.generation++;
    this.latest.clear();
    this.outgoing = [];
    this.ready = [];
    this.readyAt = 0;
    this.inFlight = 0;
    this.fillJobs = 0;
    this.wake();
    this.onRoom?.();
  }

  /** Resolves once every job added before the call was applied (sends what waits at once). */
  async settled(): Promise<void> {
    this.flush(true);
    while (this.size) {
      this.applyReady(Infinity, Infinity);
      if (!this.size) break;
      await new Promise<void>((ok) => this.waiters.push(ok));
    }
  }

  /** Resolves at the next progress (a batch sent or results applied). */
  progress(): Promise<void> {
    return new Promise((ok) => this.waiters.push(ok));
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    // After the turn that recorded the writes: one message for all of them.
    setImmediate(() => this.flush());
  }

  /**
   * Send what waits. While a batch is out, writes gather for the next one (sent when it is back):
   * under a stream of single writes a message per write cost the event loop about as much as
   * embedding them. A query's settle sends at once (`now`).
   */
  private flush(now = false): void {
    this.flushing = false;
    if (!now && this.inFlight) return;
    this.send(now);
  }

  /** Send waiting jobs: all of them (a query's settle), or until IN_FLIGHT batches are out. */
  private send(all: boolean): void {
    while (this.outgoing.length && (all || this.inFlight < IN_FLIGHT * BATCH)) {
      const batch = this.outgoing.splice(0, BATCH);
      const gen = this.generation;
      const w = this.worker();
      if (!w || w.failed) {
        for (const job of batch) this.ready.push({ job, vector: this.inline(this.textOf(job.value)) });
        continue;
      }
      this.inFlight += batch.length;
      w.embed(batch.map((j) => this.textOf(j.value))).then(
        (vectors) => this.receive(gen, batch, vectors),
        () => this.receive(gen, batch, undefined),
      );
    }
    this.scheduleApply();
    this.wake();
  }

  private receive(gen: number, batch: Sent<T>[], vectors: (Float32Array | null)[] | undefined): void {
    if (gen !== this.generation) return;
    this.inFlight -= batch.length;
    // Refused (the thread failed for good): embedded here, in the same order.
    batch.forEach((job, i) => this.ready.push({ job, vector: vectors ? vectors[i]! : this.inline(this.textOf(job.value)) }));
    this.scheduleApply();
    if (this.outgoing.length && this.inFlight < IN_FLIGHT * BATCH) this.send(false);
  }

  private scheduleApply(): void {
    if (this.applying || this.readyAt === this.ready.length) return;
    this.applying = true;
    const step = () => {
      this.applyReady(APPLY_MS, APPLY_ITEMS);
      if (this.readyAt < this.ready.length) setImmediate(step);
      else this.applying = false;
    };
    setImmediate(step);
  }

  private applyReady(budgetMs: number, items: number): void {
    const start = performance.now();
    let n = 0;
    // The clock is read after every result: at a million rows one result costs a few ms (its
    // neighbour density), and eight between readings held pushes queued behind them 20 ms and more.
    while (this.readyAt < this.ready.length && n < items && !(n > 0 && performance.now() - start > budgetMs)) {
      const { job, vector } = this.ready[this.readyAt++]!;
      n++;
      if (job.fromFill) this.fillJobs--;
      if (this.latest.get(job.uid) !== job.seq) continue;
      this.latest.delete(job.uid);
      try {
        this.apply(job, vector);
      } catch (e) {
        this.onError?.(e);
      }
    }
    if (this.readyAt === this.ready.length) {
      this.ready = [];
      this.readyAt = 0;
    } else if (this.readyAt >= BATCH) {
      // Applied results are let go as they go (their vectors are the batches' buffers).
      this.ready.splice(0, this.readyAt);
      this.readyAt = 0;
    }
    if (n) {
      this.wake();
      this.onRoom?.();
    }
  }
}
