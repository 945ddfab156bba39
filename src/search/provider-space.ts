import { type StoredTrace, traceScope } from '../contracts/memory.js';
import type { Store } from '../store/store.js';
import { followTraces } from './indexes/follow-traces.js';
import { VectorIndex } from './indexes/vector-index.js';
import { type OpenAIEmbeddings, PROVIDER_BATCH } from './providers/openai-embeddings.js';
import type { SearchLog } from './search-log.js';
import { traceText } from './text/trace-text.js';

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
    private readonly log?: SearchLog,
  ) {
    followTraces(
      store,
      (t) => {
        this.pending.set(t.uid, traceScope(t));
        this.kick();
      },
      (uid) => {
        this.pending.delete(uid);
        this.index?.remove(uid);
      },
    );
    // Once the store has every document in memory (see Store.warmed); writes meanwhile are queued above.
    void store.warmed().then(() => {
      for (const t of store.all('traces')) this.pending.set(t.uid, traceScope(t));
      this.kick();
    });
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
      if (this.index) for (const t of this.store.all('traces')) if (this.index.has(t.uid)) this.pending.set(t.uid, traceScope(t));
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
        index.upsert(t.uid, traceScope(t), vectors[i]!, t.task_id);
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
