import { type StoredTrace, traceScope } from '../contracts/memory.js';
import type { Store } from '../store/store.js';
import { IndexBacklog } from './indexes/backlog.js';
import { type EmbedJob, EmbedPipeline } from './indexes/embed-pipeline.js';
import { followTraces } from './indexes/follow-traces.js';
import { VECTORS_REVISION, type VectorFileHeader, type VectorFileRows } from './indexes/vector-file.js';
import { VectorIndex } from './indexes/vector-index.js';
import { PersistedVectors } from './indexes/vector-persistence.js';
import type { BuiltinEmbedder } from './models/builtin-embedder.js';
import { type BuiltinModel, MODEL_PACKAGE } from './models/builtin-model.js';
import { MAX_SIM_CHARS, MaxSim } from './models/max-sim.js';
import type { SearchLog } from './search-log.js';
import { textHash } from './text/text-hash.js';
import { traceText } from './text/trace-text.js';
import { EmbedWorker } from './workers/embed-worker.js';

/** Rows measured per turn of the event loop: about 5 ms of work, so requests are not held up. */
const MEASURE_BUDGET = 100;
/** A changed index is persisted at most this often (and once its fill is over, and at close while small). */
const SAVE_EVERY_MS = 120_000;
/** The largest index a stop saves: a fraction of a second of writing. */
const CLOSE_SAVE_ROWS = 20_000;

type Log = SearchLog;

export interface BuiltinSpaceOptions {
  /** Where the vectors are persisted between starts (none: every start embeds every trace). */
  file?: string;
  log?: Log;
  /** Embed on this thread instead of the embedding thread (the thread is the default). */
  inline?: boolean;
  /**
   * A start reads the persisted file once this resolves: the keyword index's own file is read
   * first (every search needs it, semantic search falls back to it meanwhile, and the two shared
   * the event loop's turns: at a million traces each took the other's time).
   */
  after?: Promise<void>;
}

/**
 * A query takes in what is left to embed itself when it is at most this much (a few ms); with
 * more (the index still filling after a start, a large import just committed) semantic search
 * says it is not ready and the caller answers with keyword hits meanwhile.
 */
export const EMBED_IN_QUERY = 500;

/**
 * Vectors of the built-in model for every trace: filled from the store once the model is loaded
 * (again when it is upgraded on a first start), then updated from every commit. All of it runs
 * behind the commit, a slice per turn of the event loop (IndexBacklog): a write costs its
 * request only the recording of its uid, an import of thousands of events never holds the loop,
 * and a start answers before the index is full.
 *
 * With a file (the daemon's `<home>/search/builtin-vectors.bin`) the index is persisted: a start
 * reads it and takes each trace's row from it while the trace's owner and text are unchanged
 * (their neighbour densities too), embedding only what changed since; a file of another model,
 * damaged or truncated, is ignored. It is written again, off the request path, after a fill,
 * every SAVE_EVERY_MS while writes come, and at close.
 */
export class BuiltinSpace {
  /** The index and the embedder that filled it: queries must be embedded by the same one. */
  current?: { index: VectorIndex; embedder: BuiltinEmbedder };
  private measuring = false;
  /** Set by close(): the measuring turns are ref'd, so they must end for the process to exit. */
  private stopped = false;
  /** Writes wait here, as uids (a fill) or the store's own documents, while the pipeline has no room. */
  private readonly backlog = new IndexBacklog<StoredTrace>((uid, t, fromFill) => this.take(uid, t, fromFill), { room: () => this.pipeline.room });
  private readonly persisted?: PersistedVectors;
  /** While the persisted file is read: the fill waits for it (settle() gives up on it). */
  private loading?: { done: Promise<void> };
  /** Rows of the persisted file not taken yet (during the fill after a start). */
  private reuse?: VectorFileRows;
  /** Rows changed since the last save began (the file is written again only when there are some). */
  private changed = 0;
  private saveTimer?: NodeJS.Timeout;
  private fillStats = { reused: 0, embedded: 0, started: 0 };
  /** Closed: the file is not written any more. */
  private closed = false;
  /** The current fill is over (its log line written, its rows saved). */
  private fillOver = true;
  /** The embedding thread of the current embedder, started at its first batch. */
  private worker?: EmbedWorker;
  /**
   * Writes being embedded on that thread and applied back a slice per turn: the backlog only
   * records writes, the pipeline turns them into rows, so a write costs the event loop its density
   * measurement and the placing of its row, not its embedding.
   */
  private readonly pipeline = new EmbedPipeline<StoredTrace>(
    () => this.thread(),
    traceText,
    (text) => this.current?.embedder.embed(text) ?? null,
    (job, vector) => this.place(job, vector),
    undefined,
    () => this.backlog.resume(),
  );

  constructor(
    private readonly store: Store,
    readonly model: BuiltinModel,
    private readonly opts: BuiltinSpaceOptions = {},
  ) {
    if (opts.file) this.persisted = new PersistedVectors(opts.file, opts.log);
    followTraces(
      store,
      (t) => this.backlog.add(t.uid, t),
      (uid) => this.backlog.add(uid, null),
    );
    model.onReady((embedder) => {
      this.current = { index: new VectorIndex(embedder.dims), embedder };
      // Another embedder: what the old one's thread was doing is for an index that is gone.
      this.pipeline.reset();
      void this.worker?.close();
      this.worker = undefined;
      if (!this.persisted) return this.fill(undefined);
      const loading: { done: Promise<void> } = { done: Promise.resolve() };
      this.loading = loading;
      const persisted = this.persisted;
      // After the store has every document in memory (see Store.warmed): the fill lists them all.
      loading.done = Promise.all([this.opts.after, this.store.warmed()])
        .then(() => (this.loading === loading && !this.stopped ? persisted.load(this.header(embedder)) : undefined))
        .then((rows) => {
          // Given up meanwhile (a query settled a small memory), replaced (a new embedder) or closed.
          if (this.loading !== loading || this.stopped) return void rows?.close();
          this.loading = undefined;
          this.fill(rows);
        });
    });
  }

  private header(embedder: BuiltinEmbedder): VectorFileHeader {
    return { model: embedder.model, dims: embedder.dims, revision: VECTORS_REVISION };
  }

  /** Take in every stored trace (reusing the persisted rows that still match), in the background. */
  private fill(rows: VectorFileRows | undefined): void {
    this.dropReuse();
    this.reuse = rows;
    this.fillStats = { reused: 0, embedded: 0, started: performance.now() };
    const traces = this.store.all('traces');
    const perUser = new Map<string, number>();
    for (const t of traces) {
      const scope = traceScope(t);
      perUser.set(scope, (perUser.get(scope) ?? 0) + 1);
    }
    for (const [user, n] of perUser) this.current?.index.reserve(user, n);
    // Writes recorded meanwhile stay queued; the fill reads each trace as it is when its turn comes.
    this.backlog.fillFrom(
      traces.map((t) => t.uid),
      (uid) => this.store.get('traces', uid) ?? null,
    );
    this.afterFill();
  }

  /** Let go of the persisted file's rows (and the file). */
  private dropReuse(): void {
    void this.reuse?.close();
    this.reuse = undefined;
  }

  /** The embedding thread, once started (tests kill it to check that it is restarted). */
  get embeddingThread(): EmbedWorker | undefined {
    return this.worker;
  }

  private thread(): EmbedWorker | undefined {
    const cur = this.current;
    if (!cur || this.opts.inline || this.stopped) return undefined;
    this.worker ??= new EmbedWorker(cur.embedder, this.opts.log);
    return this.worker;
  }

  private take(uid: string, t: StoredTrace | null, fromFill: boolean): void {
    const cur = this.current;
    if (!cur) return;
    this.changed++;
    if (!t) {
      this.pipeline.forget(uid);
      cur.index.remove(uid);
      return;
    }
    const text = traceText(t);
    const tag = textHash(text);
    if (fromFill && this.reuse) {
      const r = this.reuse.get(uid);
      if (r && r.userId === traceScope(t) && r.tag === tag) {
        this.pipeline.forget(uid);
        cur.index.loadRaw(r, t.task_id);
        this.changed--;
        this.fillStats.reused++;
        return;
      }
    }
    // An edit that left the text alone (importance, rating, links…): the row, its group and its
    // density stand (the task is part of the text). Embedding and measuring it again was most of
    // an edit's indexing, and the measuring grows with the store for rows of the density sample.
    if (!fromFill && cur.index.holds(uid, traceScope(t), tag)) {
      this.pipeline.forget(uid);
      this.changed--;
      return;
    }
    this.pipeline.add({ uid, value: t, tag, fromFill });
  }

  /** A write's vector is back from the embedding thread: its row goes into the index (with its density measured). */
  private place(job: EmbedJob<StoredTrace>, vector: Float32Array | null): void {
    const cur = this.current;
    if (!cur) return;
    const { uid, value: t, tag, fromFill } = job;
    if (!fromFill) {
      cur.index.upsert(uid, traceScope(t), vector, t.task_id, tag);
      return;
    }
    this.fillStats.embedded++;
    // A bulk fill: searchable at once, its densities measured once the fill is over (against
    // the same rows as a fill from scratch), a little at a time.
    cur.index.load([{ uid, userId: traceScope(t), vector, group: t.task_id, tag }]);
  }

  /**
   * Once the fill is over: let go of the file's rows, persist what had to be embedded (so a
   * daemon killed during the long measurement that follows does not embed it all again), measure
   * the densities still missing (a little at a time), then persist those too.
   */
  private afterFill(): void {
    this.fillOver = false;
    if (this.measuring) return;
    this.measuring = true;
    let measured = 0;
    const step = () => {
      if (this.stopped) return void (this.measuring = false);
      // While the fill goes on, look again a little later (no spinning turn after turn).
      // Ref'd turns: Node runs unref'd immediates only when something else wakes the loop, so the
      // measuring would wait for requests and then slow every one of them.
      if (this.backlog.filling || this.loading || this.pipeline.fillJobs) return void setTimeout(step, 50).unref();
      if (!this.fillOver) {
        this.fillOver = true;
        this.dropReuse();
        measured += this.current?.index.unmeasured ?? 0;
        const { reused, embedded, started } = this.fillStats;
        if (this.persisted) this.opts.log?.('semantic index filled', { reused, embedded, ms: Math.round(performance.now() - started) }, 'info');
        if (this.changed) void this.save();
      }
      if (this.current?.index.measurePending(MEASURE_BUDGET)) return void setImmediate(step);
      this.measuring = false;
      this.changed += measured;
      this.saveSoon();
    };
    setImmediate(step);
  }

  /** Persist the index if it changed (now, in the background), and again every SAVE_EVERY_MS while writes come. */
  private saveSoon(): void {
    if (!this.persisted) return;
    if (this.changed) void this.save();
    if (this.saveTimer) return;
    this.saveTimer = setInterval(() => {
      if (this.changed && !this.backlog.filling && !this.pipeline.fillJobs && !this.loading && !this.measuring) void this.save();
    }, SAVE_EVERY_MS).unref();
  }

  private save(): Promise<void> {
    if (!this.persisted || this.closed) return Promise.resolve();
    return this.persisted.save(() => {
      const cur = this.current;
      if (!cur || !this.changed) return undefined;
      const changed = this.changed;
      return { index: cur.index, header: this.header(cur.embedder), done: () => void (this.changed -= changed) };
    });
  }

  /**
   * Stop at once, whatever is pending (a daemon stopping): writes not embedded yet are dropped,
   * the rows the index holds are persisted as they stand (unless the fill after a start is under
   * way: the file it reads from is then still the better one). The next start's fill embeds
   * what is missing from the file, so the backlog resumes there.
   */
  async close(): Promise<void> {
    // The measuring turns are ref'd: they must end for the process to exit.
    this.stopped = true;
    clearInterval(this.saveTimer);
    const filling = this.loading !== undefined || this.backlog.filling || this.pipeline.fillJobs > 0;
    this.backlog.stop();
    this.dropReuse();
    // Results still coming back are for writes given up: never embedded here instead.
    this.pipeline.reset();
    const worker = this.worker?.close();
    if (!this.persisted || this.closed) {
      await worker;
      return;
    }
    // A small index is saved as it stands (rows not measured yet without a density: the next
    // start measures them). A large one is not: writing it would hold the stop for seconds, and
    // the next start embeds again only what changed since the last save (one every
    // SAVE_EVERY_MS while writes come, and after each fill).
    if (this.current && this.current.index.size > CLOSE_SAVE_ROWS) await this.persisted.stop();
    else {
      await this.persisted.idle();
      if (this.changed && this.current && !filling) await this.save();
    }
    // Nothing is written after this (a measurement still under way ends without a save).
    this.closed = true;
    await worker;
  }

  /** Writes not embedded yet (while the persisted file is read: every stored trace). */
  get behind(): number {
    const waiting = this.backlog.size + this.pipeline.size;
    return this.loading ? Math.max(waiting, this.store.count('traces')) : waiting;
  }

  /** Resolves once at most `n` writes are left to embed. */
  async whenBelow(n: number): Promise<void> {
    for (;;) {
      while (this.loading) await this.loading.done;
      if (this.behind <= n) return;
      // The backlog hands its writes to the pipeline, which reports each batch sent and applied.
      const progress = this.pipeline.progress();
      await (this.backlog.size ? Promise.race([this.backlog.whenBelow(this.backlog.size - 1), progress]) : progress);
    }
  }

  /**
   * Embed every write still waiting, now (a query does when `behind` is at most EMBED_IN_QUERY):
   * one round trip to the embedding thread, then their rows are placed.
   */
  async settle(): Promise<void> {
    if (this.loading) {
      // A memory small enough to embed now: no need to wait for the file.
      this.loading = undefined;
      this.fill(undefined);
    }
    this.backlog.settle();
    await this.pipeline.settled();
    // A small memory's densities are measured here too, so it ranks at once as it will for good
    // (a large one's are measured in the background, a few ms at a time).
    const index = this.current?.index;
    if (index && index.unmeasured <= EMBED_IN_QUERY) index.measurePending(EMBED_IN_QUERY);
  }

  get name(): string {
    return this.current?.embedder.model ?? MODEL_PACKAGE;
  }

  /** A query's unit vector by the current embedder, on its thread (one round trip) when that runs. */
  async embedQuery(current: { embedder: BuiltinEmbedder }, text: string): Promise<Float32Array | null> {
    const w = current === this.current ? this.thread() : undefined;
    if (w && !w.failed) {
      try {
        return (await w.embed([text]))[0]!;
      } catch {
        // The thread failed for good meanwhile: embedded here.
      }
    }
    return current.embedder.embed(text);
  }

  /** Max-sim on this thread (no embedding thread), for the embedder it was made for. */
  private inlineMaxSim?: MaxSim;

  /**
   * Each trace's max-sim score against the query (models/max-sim.ts) by the current embedder, on
   * its thread (one round trip) when that runs; 0 for a trace gone meanwhile.
   */
  async maxSim(current: { embedder: BuiltinEmbedder }, query: string, uids: string[]): Promise<Float32Array> {
    const texts = uids.map((uid) => {
      const t = this.store.get('traces', uid);
      return t ? traceText(t).slice(0, MAX_SIM_CHARS) : '';
    });
    const w = current === this.current ? this.thread() : undefined;
    if (w && !w.failed) {
      try {
        return await w.maxSim(query, texts);
      } catch {
        // The thread failed for good meanwhile: scored here.
      }
    }
    if (this.inlineMaxSim?.embedder !== current.embedder) this.inlineMaxSim = new MaxSim(current.embedder);
    return this.inlineMaxSim.scores(query, texts);
  }
}
