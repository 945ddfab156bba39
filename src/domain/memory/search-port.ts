import type { EmbeddingsInfo } from '../../contracts/memory.js';

/**
 * What the memory service needs from search, and all it knows of it: a keyword search and a
 * semantic search over the traces of one scope: a user's default space or one of their named spaces
 * (`searchScopeKey` in contracts/memory.ts; `traceScope` gives a trace's). Each scope is indexed
 * alone, so its keyword weights and neighbour densities are its own. The indexes, model files, providers and worker
 * processes behind them live in src/search, which implements these types; the composition root
 * (src/server/services.ts) hands them to the service. Types only: the domain owns the seam.
 */

/** A keyword hit: the trace uid, its raw (unnormalized) BM25, and its share of the query's content words. */
export interface KeywordHit {
  uid: string;
  /** Raw BM25. */
  score: number;
  /** Matched share of the query's content words (stop words aside), 0–1. */
  coverage: number;
}

export interface KeywordSearchOptions {
  /** At most this many hits (default: all). */
  limit?: number;
  /** Only traces this lets through (asked only for traces that would make the cut). */
  accept?: (uid: string) => boolean;
}

/** Keyword retrieval over the traces of every user, kept in step with the store by its implementation. */
export interface KeywordSearchPort {
  /** Hits among one scope's traces, best first. */
  search(scope: string, query: string, opts?: KeywordSearchOptions): KeywordHit[];
  /**
   * The traces at most `span` places before and after a trace among the traces of its task in
   * its scope, in time order (timestamp, then uid), nearest first.
   */
  neighbours?(uid: string, span: number): string[];
  /**
   * Resolves once the index is close enough to the store that `search` catches up at once (it
   * indexes behind the commit, and fills itself in the background after a start).
   */
  whenSettled?(): Promise<void>;
}

/** A semantic hit: the trace uid and its similarity to the query (cosine, corrected by the index). */
export interface SemanticHit {
  uid: string;
  score: number;
}

export type SemanticAnswer =
  | {
      available: true;
      /** Best first; empty when the query has no word the model knows. */
      hits: SemanticHit[];
      /** Cosine similarity of any of the user's traces to the query (for fusing keyword hits). */
      similarity: (uid: string) => number | undefined;
      info: EmbeddingsInfo;
    }
  | { available: false; reason: string; info: EmbeddingsInfo };

export interface SemanticSearchOptions {
  /**
   * Score the best hits again word by word (the built-in model's max-sim): for semantic mode,
   * which has no keyword side to match the query's words one by one.
   */
  wordByWord?: boolean;
}

/**
 * Semantic retrieval: the configured provider or the built-in model. `available: false` (the
 * model is still being prepared, or failed) tells the caller to answer with keyword hits.
 */
export interface SemanticSearchPort {
  search(scope: string, query: string, k: number, accept: (uid: string) => boolean, opts?: SemanticSearchOptions): Promise<SemanticAnswer>;
}
