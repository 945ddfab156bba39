import type { StoredTrace } from '../contracts/memory.js';
import type { Store } from '../store/store.js';
import { VectorIndex } from './indexes/vector-index.js';
import type { BuiltinEmbedder } from './models/builtin-embedder.js';
import { type BuiltinModel, MODEL_PACKAGE } from './models/builtin-model.js';
import { type OpenAIEmbeddings, PROVIDER_BATCH } from './providers/openai-embeddings.js';
import { traceText } from './text/trace-text.js';

/**
 * A commit writing more traces than this (an .ics import, a large push) is embedded a slice per
 * turn of the event loop (a query first finishes what is left). Done in one go, each write's
 * density scan of its neighbours held the loop for most of a minute on a 58,000-event import.
 */
const BULK_TRACE_WRITES = 64;

/** Follow every committed trace write (puts and deletes) of the store; `bulk` marks a large commit. */
function followTraces(store: Store, onPut: (t: StoredTrace, bulk: boolean) => void, onDel: (uid: string) => void, onBulk?: () => void): () => void {
  return store.changes('traces', (changes) => {
    const bulk = changes.filter((c) => c.op === 'put').length > BULK_TRACE_WRITES;
    for (const c of changes) {
      if (c.op === 'put') onPut(c.doc, bulk);
      else onDel(c.id);
    }
    if (bulk) onBulk?.();
  });
}

/** Traces embedded and measured per turn of the event loop when a large commit is taken in: ~15 ms. */
const BACKLOG_SLICE = 40;

/** Rows measured per turn of the event loop: about 5 ms of work, so requests are not held up. */
const MEASURE_BUDGET = 100;

/** Measure the densities of a bulk-loaded index a little at a time, between requests. */
export function measureInBackground(index: VectorIndex): void {
  const step = () => {
    if (index.measurePending(MEASURE_BUDGET)) setImmediate(step).unref();
  };
  setImmediate(step).unref();
}

/**
 * Vectors of the built-in model for every trace: filled from the store once the model is loaded
 * (again when it is upgraded on a first start), then updated on every commit: synchronously for
 * ordinary writes (embedding a trace takes microseconds), a slice per turn of the event loop for
 * large ones (an import of thousands of events), so no request waits behind them.
 */
export class BuiltinSpace {
  /** The index and the embedder that filled it: queries must be embedded by the same one. */
  current?: { index: VectorIndex; embedder: BuiltinEmbedder };
  /** Traces of large commits not embedded yet, by uid (a later write of the same uid replaces it). */
  private readonly backlog = new Map<string, StoredTrace>();
  private draining = false;

  constructor(
    store: Store,
    readonly model: BuiltinModel,
  ) {
    followTraces(
      store,
      (t, bulk) => {
        if (bulk) return void this.backlog.set(t.uid, t);
        this.backlog.delete(t.uid);
        const cur = this.current;
        cur?.index.upsert(t.uid, t.user_id, cur.embedder.embed(traceText(t)), t.task_id);
      },
      (uid) => {
        this.backlog.delete(uid);
        this.current?.index.remove(uid);
      },
      () => this.drainInBackground(),
    );
    model.onReady((embedder) => {
      const index = new VectorIndex(embedder.dims);
      // A generator: one vector at a time, not 100,000 of them held at once.
      index.load(
        (function* () {
          for (const t of store.all('traces')) yield { uid: t.uid, userId: t.user_id, vector: embedder.embed(traceText(t)), group: t.task_id };
        })(),
      );
      this.current = { index, embedder };
      measureInBackground(index);
    });
  }

  /** Embed up to `budget` traces of the backlog (all of it without one); true while some remain. */
  settle(budget = Infinity): boolean {
    const cur = this.current;
    for (const [uid, t] of this.backlog) {
      if (budget-- <= 0) return true;
      this.backlog.delete(uid);
      // In commit order and measured as it goes: the index ends as if each had been written alone.
      cur?.index.upsert(uid, t.user_id, cur.embedder.embed(traceText(t)), t.task_id);
    }
    return false;
  }

  private drainInBackground(): void {
    if (this.draining) return;
    this.draining = true;
    const step = () => {
      if (this.settle(BACKLOG_SLICE)) return void setImmediate(step).unref();
      this.draining = false;
    };
    setImmediate(step).unref();
  }

  get name(): string {
    return this.current?.embedder.model ?? MODEL_PACKAGE;
  }
}

/** After a failed call, the provider is left alone this long (queries fall back at once). */
const RETRY_AFTER_MS = 30_000;
/** How long a query waits for the provider to catch up with recent writes. */
const QUERY_WAIT_MS = 3_000;

/**
 * Vectors of an OpenAI-compatible provider. Writes are queued and embedded in batches in the
 * background; a query first lets the queue of its user drain (briefly), so a trace pushed a moment
 * ago is found. Provider vectors live in their own index: never mixed with the built-in ones.
 */
export class ProviderSpace {
  index?: VectorIndex;
  /** The last failure, shown as the fallback reason while the provider is backing off. */
  lastError?: string;
  private retryAt = 0;
  private readonly pending = new Map<string, string>(); // uid → user id
  private draining?: Promise<void>;

  constructor(
    private readonly store: Store,
    readonly client: OpenAIEmbeddings,
    private readonly log?: (msg: string, extra?: Record<string, unknown>) => void,
  ) {
    followTraces(
      store,
      (t) => {
        this.pending.set(t.uid, t.user_id);
        this.kick();
      },
      (uid) => {
        this.pending.delete(uid);
        this.index?.remove(uid);
      },
    );
    for (const t of store.all('traces')) this.pending.set(t.uid, t.user_id);
    this.kick();
  }

  get name(): string {
    return this.client.model;
  }

  private backingOff(): boolean {
    return performance.now() < this.retryAt;
  }

  private fail(e: unknown): Error {
    this.lastError = (e as Error).message;
    this.retryAt = performance.now() + RETRY_AFTER_MS;
    this.log?.('embeddings provider failed; using the built-in model meanwhile', { error: this.lastError });
    setTimeout(() => this.kick(), RETRY_AFTER_MS).unref();
    return e as Error;
  }

  private accept(vectors: Float32Array[]): VectorIndex {
    const dims = vectors[0]!.length;
    if (!this.index || this.index.dims !== dims) {
      // Another model (or a changed one): its vectors cannot be compared with the old ones.
      if (this.index) for (const t of this.store.all('traces')) if (this.index.has(t.uid)) this.pending.set(t.uid, t.user_id);
      this.index = new VectorIndex(dims);
    }
    return this.index;
  }

  /** Start draining the queue in the background (no-op while draining or backing off). */
  private kick(): void {
    if (this.draining || !this.pending.size || this.backingOff()) return;
    this.draining = this.drain()
      .catch(() => {})
      .finally(() => {
        this.draining = undefined;
        if (this.pending.size && !this.backingOff()) this.kick();
      });
  }

  private async drain(): Promise<void> {
    while (this.pending.size && !this.backingOff()) {
      const batch: StoredTrace[] = [];
      for (const uid of this.pending.keys()) {
        const t = this.store.get('traces', uid);
        if (t) batch.push(t);
        else this.pending.delete(uid);
        if (batch.length === PROVIDER_BATCH) break;
      }
      if (!batch.length) return;
      let vectors: Float32Array[];
      try {
        vectors = await this.client.embed(batch.map(traceText));
      } catch (e) {
        throw this.fail(e);
      }
      const index = this.accept(vectors);
      batch.forEach((t, i) => {
        // Edited while the call was out: its newer text is queued again, keep the queue entry.
        if (this.store.get('traces', t.uid) !== t) return;
        index.upsert(t.uid, t.user_id, vectors[i]!, t.task_id);
        this.pending.delete(t.uid);
      });
    }
  }

  private pendingOf(userId: string): number {
    let n = 0;
    for (const u of this.pending.values()) if (u === userId) n++;
    return n;
  }

  /**
   * The provider's index, up to date for this user, and the query's vector; throws (with a
   * reason to show) when the provider cannot answer, so the caller falls back.
   */
  async prepare(userId: string, query: string): Promise<{ index: VectorIndex; vector: Float32Array }> {
    if (this.backingOff()) throw new Error(this.lastError ?? 'embeddings provider unavailable');
    if (this.pendingOf(userId)) {
      this.kick();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.draining, new Promise((ok) => (timer = setTimeout(ok, QUERY_WAIT_MS)))]);
      clearTimeout(timer);
      const left = this.pendingOf(userId);
      if (left) throw new Error(this.lastError && this.backingOff() ? this.lastError : `the provider has not embedded ${left} of your traces yet`);
    }
    let vector: Float32Array;
    try {
      [vector] = (await this.client.embed([query])) as [Float32Array];
    } catch (e) {
      throw this.fail(e);
    }
    const index = this.index ?? this.accept([vector]);
    if (vector.length !== index.dims)
      throw this.fail(new Error(`the provider's query vector has ${vector.length} dimensions, its trace vectors ${index.dims}`));
    return { index, vector };
  }
}
