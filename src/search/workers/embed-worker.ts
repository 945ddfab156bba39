import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OnDemandWorker } from '../../platform/on-demand-worker.js';
import type { BuiltinEmbedder } from '../models/builtin-embedder.js';
import type { SearchLog } from '../search-log.js';

/**
 * A batch of texts to embed, as posted to the thread; with `query`, the texts are scored against
 * it word by word instead (models/max-sim.ts).
 */
export interface EmbedRequest {
  id: number;
  texts: string[];
  query?: string;
}

/**
 * The thread's answer: `known[i]` 0 means text i had no known word (no vector). To a request with
 * a query, `vectors` holds one max-sim score per text.
 */
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
 * lifecycle (start on demand, stop when idle, fail what a dead thread owed) is
 * src/platform/on-demand-worker.ts.
 */
export class EmbedWorker {
  private readonly thread: OnDemandWorker<Omit<EmbedRequest, 'id'>, EmbedReply>;

  constructor(
    private readonly embedder: BuiltinEmbedder,
    log?: SearchLog,
    idleMs = IDLE_MS,
  ) {
    this.thread = new OnDemandWorker({
      name: 'the embedding thread',
      script: scriptUrl,
      // A small young generation: the thread's garbage is a batch's texts and vectors; the default
      // (as large as the main thread's) made the daemon's RSS tens of MB larger under writes.
      options: () => {
        const { words, sentence } = embedder.tables;
        return { workerData: { words, sentence }, resourceLimits: { maxYoungGenerationSizeMb: 4 } };
      },
      idleMs,
      resend: MAX_CRASHES - 1,
      giveUp: true,
      onDeath: (e, resent) =>
        log?.(resent ? 'embedding thread died; starting it again' : 'embedding thread failed; embedding on the main thread from now on', { error: e.message }),
    });
  }

  /** Set once the thread was given up: every later batch is refused at once. */
  get failed(): Error | undefined {
    return this.thread.failed;
  }

  /** A thread is up (started and not stopped for idleness). */
  get running(): boolean {
    return this.thread.running;
  }

  /** Batches sent and not answered yet. */
  get pending(): number {
    return this.thread.pending;
  }

  /** The unit vectors of the texts (null for a text without a known word), in order. */
  async embed(texts: string[]): Promise<(Float32Array | null)[]> {
    const { vectors, known } = await this.thread.call({ texts });
    const dims = this.embedder.dims;
    return texts.map((_, i) => (known[i] ? vectors.subarray(i * dims, (i + 1) * dims) : null));
  }

  /** The max-sim score of each text against the query (models/max-sim.ts), in order. */
  async maxSim(query: string, texts: string[]): Promise<Float32Array> {
    return (await this.thread.call({ texts, query })).vectors;
  }

  /** Stop the thread (unanswered batches are refused). */
  close(): Promise<void> {
    return this.thread.close();
  }

  /** Kill the thread as a crash would (tests of the restart): what it was doing is sent again to a new one. */
  crash(): Promise<void> {
    return this.thread.crash();
  }
}
