import type { EmbeddingsInfo } from '../contracts/memory.js';
import type { SemanticAnswer, SemanticSearchOptions, SemanticSearchPort } from '../domain/memory/search-port.js';
import { type BuiltinSpace, EMBED_IN_QUERY } from './builtin-space.js';
import { blendMaxSim, RERANK_DEPTH } from './max-sim-rerank.js';
import type { ModelStatus } from './models/builtin-model.js';
import type { ProviderSpace } from './provider-space.js';
import { wordTokens } from './text/tokenize.js';

/** How long a query waits for a built-in model that is still being prepared on first start. */
const MODEL_WAIT_MS = 2_000;
/** A query waits (up to MODEL_WAIT_MS) for a fill of the semantic index only this big: well under a second of work. */
const WAIT_FOR_FILL = 5_000;

/** What the keyword index knows of a user's words: the share of traces with a word, and how many traces there are. */
export interface WordShare {
  share(userId: string, word: string): number;
  traces(userId: string): number;
}

/**
 * A query word in more than this share of the user's traces is left out of the query's vector.
 */
export const COMMON_SHARE = 0.1;
/** In a smaller memory no word counts as common: a tenth of it is a handful of traces, which one topic fills. */
export const COMMON_MIN_TRACES = 100;

/**
 * The query's words that tell the user's traces apart. A word most traces contain (the name of
 * the one person a memory is about, its project's name) says little about which trace answers,
 * yet weighs as much in the query's pooled vector as the words that do: pooled alone, such a
 * query finds the traces closest to that word, not to the question. Only the query loses them;
 * a trace's vector stays its own, computed once. A query made only of such words stays whole.
 */
export function telling(query: string, share: (word: string) => number, traces: number): string {
  if (traces < COMMON_MIN_TRACES) return query;
  const words = wordTokens(query);
  const kept = words.filter((w) => share(w) <= COMMON_SHARE);
  return kept.length && kept.length < words.length ? kept.join(' ') : query;
}

/**
 * Semantic retrieval over the configured provider, falling back to the built-in model when the
 * provider fails (the answer says so), and reporting unavailability while the built-in model is
 * still being prepared so the caller can answer with keyword results instead.
 */
export class SemanticSearch implements SemanticSearchPort {
  constructor(
    private readonly builtin: BuiltinSpace,
    private readonly provider?: ProviderSpace,
    private readonly words?: WordShare,
  ) {}

  /** How far the built-in model is (for the status): ready, being prepared (with progress), or unavailable. */
  modelStatus(): ModelStatus {
    return this.builtin.model.status();
  }

  /**
   * Load the built-in model now (the daemon calls it once it answers; a query that needs the model
   * calls it too). Idempotent.
   */
  begin(): void {
    this.builtin.model.begin?.();
  }

  /** Stop the built-in model's preparation children and persist the index (daemon shutdown or failed start). */
  async close(): Promise<void> {
    await Promise.all([this.builtin.model.close(), this.builtin.close()]);
  }

  async search(userId: string, query: string, k: number, accept: (uid: string) => boolean, opts: SemanticSearchOptions = {}): Promise<SemanticAnswer> {
    let fallback: string | undefined;
    if (this.provider) {
      try {
        const { index, vector } = await this.provider.prepare(userId, query);
        return {
          available: true,
          hits: index.search(userId, vector, k, accept),
          similarity: (uid) => index.similarity(uid, vector),
          info: { provider: 'openai', model: this.provider.name },
        };
      } catch (e) {
        fallback = (e as Error).message;
      }
    }
    this.begin();
    if (!this.builtin.current) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.builtin.model.ready, new Promise((ok) => (timer = setTimeout(ok, MODEL_WAIT_MS)))]);
      clearTimeout(timer);
    }
    // A query sees every acknowledged write: what is left to embed is embedded now when it is
    // little; while the index is still filling (a start, a large import), keyword hits answer.
    let behind = this.builtin.behind ?? 0;
    if (this.builtin.current && behind > EMBED_IN_QUERY && behind <= WAIT_FOR_FILL) {
      // Filling after a start: a small memory is done in a moment; a large one answers with keyword hits meanwhile.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.builtin.whenBelow(EMBED_IN_QUERY), new Promise((ok) => (timer = setTimeout(ok, MODEL_WAIT_MS)))]);
      clearTimeout(timer);
      behind = this.builtin.behind;
    }
    const filling = behind > EMBED_IN_QUERY;
    if (!filling) await this.builtin.settle();
    const current = this.builtin.current;
    const info: EmbeddingsInfo = {
      provider: 'builtin',
      model: this.builtin.name,
      ...(fallback !== undefined ? { fallback_reason: fallback } : {}),
      ...(current && this.builtin.model.upgrading
        ? { preparing: 'the sentence encoder is being prepared (first start only; several minutes): the word vectors answer alone until then' }
        : {}),
    };
    if (current && filling) {
      const why = `the semantic index is being built (${behind} traces to go, in the background): keyword hits answer meanwhile`;
      return { available: false, reason: fallback ? `${fallback}; ${why}` : why, info };
    }
    if (!current) {
      const why = this.builtin.model.error
        ? `the built-in embedding model is unavailable: ${this.builtin.model.error}`
        : 'the built-in embedding model is being prepared (first start only; under a minute)';
      return { available: false, reason: fallback ? `${fallback}; ${why}` : why, info };
    }
    const { index } = current;
    const text = this.words ? telling(query, (w) => this.words!.share(userId, w), this.words.traces(userId)) : query;
    const vector = await this.builtin.embedQuery(current, text);
    if (!vector) return { available: true, hits: [], similarity: () => undefined, info };
    const scanned = index.search(userId, vector, k, accept);
    if (!opts.wordByWord) return { available: true, hits: scanned, similarity: (uid) => index.similarity(uid, vector), info };
    // The scan's best hits are scored again word by word (max-sim-rerank.ts), with the same words.
    const head = scanned.slice(0, RERANK_DEPTH).map((h) => h.uid);
    const { hits, rescore } = blendMaxSim(scanned, head.length ? await this.builtin.maxSim(current, text, head) : new Float32Array(0));
    return {
      available: true,
      hits,
      similarity: (uid) => {
        const plain = index.similarity(uid, vector);
        return plain === undefined ? undefined : rescore(uid, plain);
      },
      info,
    };
  }
}
