import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Store } from '../store/store.js';
import { BuiltinSpace } from './builtin-space.js';
import { BuiltinModel, modelLocations } from './models/builtin-model.js';
import { ProviderSpace } from './provider-space.js';
import { OpenAIEmbeddings } from './providers/openai-embeddings.js';
import type { SearchLog } from './search-log.js';
import { SemanticSearch, type WordShare } from './semantic-search.js';

type Log = SearchLog;

/**
 * Semantic search for a daemon: the built-in model (always: it is the fallback) and, when
 * `embeddings.baseUrl` is configured, an OpenAI-compatible provider in front of it.
 */
export function createSemanticSearch(deps: {
  store: Store;
  config: Pick<Config, 'embeddings' | 'model'>;
  log?: Log;
  words?: WordShare;
  /** The built-in index reads its persisted file once this resolves (see BuiltinSpaceOptions.after). */
  after?: Promise<void>;
}): SemanticSearch {
  const model = new BuiltinModel({
    ...modelLocations(deps.config.model),
    log: deps.log,
    // Loaded just after the daemon listens (its files take tens of ms to decode and grow the
    // start otherwise); the converters of a first start die with a daemon killed at any moment
    // (platform/child-lifeline.ts).
    lazy: true,
  });
  // Persisted beside the store: a start reads it instead of embedding every trace again.
  const builtin = new BuiltinSpace(deps.store, model, { file: join(deps.store.paths.home, 'search', 'builtin-vectors.bin'), log: deps.log, after: deps.after });
  const { baseUrl, model: name, apiKey } = deps.config.embeddings;
  const provider = baseUrl ? new ProviderSpace(deps.store, new OpenAIEmbeddings({ baseUrl, model: name, apiKey }), deps.log) : undefined;
  return new SemanticSearch(builtin, provider, deps.words);
}
