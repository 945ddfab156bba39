import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BuiltinEmbedder } from '../models/builtin-embedder.js';

/** A batch of texts to embed, as posted to the thread. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** The thread's answer: `known[i]` 0 means text i had no known word (no vector). */
export interface EmbedReply {
  id: number;
  vectors: Float32Array;
  known: Uint8Array;
}

/** A thread that dies this many times in a row, without answering in between, is given up. */
const MAX_CRASHES = 3;
/**
 * A thread with nothing to do for this long is stopped (its isolate and word lookup are ~30 MB of
 * the daemon's RSS); the next batch starts another, which costs that batch a few hundred ms.
 */
const IDLE_MS = 30_000;

/**
 * The thread's script. Built, it sits beside this file; run from src/ (the unit tests), the
 * built copy in dist/ is used (the test set-up builds it first).
 */
function scriptUrl(): URL {
  const here = new URL('./embed-worker-main.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return pathToFileURL(fileURLToPath(here).replace(/([/\\])src([/\\])search([/\\])/, '$1dist$2search$3'));
}

/**
 * One long-lived embedding thread, started at the first batch, for one embedder (a new embedder
 * gets a new thread). Each answer carries its batch's id: the thread embeds a piece of a text at a
 * time, so a short batch (a query) is answered while a long one goes on. A thread that dies is
 * started again and every unanswered batch sent again, in order; after MAX_CRASHES deaths in a
 * row every waiting batch is refused (the caller embeds on its own thread from then on). The
 * thread keeps the process alive only while it owes an answer, and stops after IDLE_MS without work.
 */
export class EmbedWorker {
  private worker?: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { texts: string[]; resolve: (v: (Float32Array | null)[]) => void; reject: (e: Error) => void }>();
  private crashes = 0;
  private closed = false;
  private idleTimer?: NodeJS.Timeout;
  /** Set once the thread was given up: every later batch is refused at once. */
  failed?: Error;

  constructor(
    private readonly embedder: BuiltinEmbedder,
    private readonly log?: (msg: string, extra?: Record<string, unknown>) => void,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** A thread is up (started and not stopped for idleness). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Batches sent and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** The unit vectors of the texts (null for a text without a known word), in order. */
  embed(texts: string[]): Promise<(Float32Array | null)[]> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error('the embedding thread is closed'));
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { texts, resolve, reject });
      this.post(id, texts);
    });
  }

  private post(id: number, texts: string[]): void {
    const msg: EmbedRequest = { id, texts };
    const w = this.thread();
    clearTimeout(this.idleTimer);
    // Ref'd while it owes an answer (a process awaiting one must not exit), unref'd when idle.
    w.ref();
    w.postMessage(msg);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const { words, sentence } = this.embedder.tables;
    // A small young generation: the thread's garbage is a batch's texts and vectors; the default
    // (as large as the main thread's) made the daemon's RSS tens of MB larger under writes.
    const w = new Worker(scriptUrl(), { workerData: { words, sentence }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    w.on('message', (m: EmbedReply) => this.answer(m));
    w.on('error', (e) => this.died(w, e));
    w.on('exit', (code) => this.died(w, new Error(`the embedding thread exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the thread again.
    w.unref();
    this.worker = w;
    return w;
  }

  private answer({ id, vectors, known }: EmbedReply): void {
    const job = this.waiting.get(id);
    if (!job) return;
    this.waiting.delete(id);
    this.crashes = 0;
    if (!this.waiting.size) {
      this.worker?.unref();
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stopIdle(), this.idleMs).unref();
    }
    const dims = this.embedder.dims;
    job.resolve(job.texts.map((_, i) => (known[i] ? vectors.subarray(i * dims, (i + 1) * dims) : null)));
  }

  private stopIdle(): void {
    const w = this.worker;
    if (!w || this.waiting.size) return;
    // Not a death: the exit handler sees another (or no) thread and ignores it.
    this.worker = undefined;
    void w.terminate();
  }

  /** A thread that died (or failed to start): start another and send it what is still unanswered, in order. */
  private died(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    if (this.closed || !this.waiting.size) return;
    if (++this.crashes >= MAX_CRASHES) {
      this.failed = e;
      this.log?.('embedding thread failed; embedding on the main thread from now on', { error: e.message });
      const jobs = [...this.waiting.values()];
      this.waiting.clear();
      for (const j of jobs) j.reject(e);
      return;
    }
    this.log?.('embedding thread died; starting it again', { error: e.message });
    for (const [id, j] of this.waiting) this.post(id, j.texts);
  }

  /** Stop the thread (unanswered batches are refused). Tests also use it to kill the thread mid-batch. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    const jobs = [...this.waiting.values()];
    this.waiting.clear();
    for (const j of jobs) j.reject(new Error('the embedding thread is closed'));
    await w?.terminate();
  }

  /** Kill the thread as a crash would (tests of the restart): what it was doing is sent again to a new one. */
  async crash(): Promise<void> {
    const w = this.worker;
    if (w) await w.terminate();
  }
}
