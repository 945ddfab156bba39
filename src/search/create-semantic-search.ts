import type { Config } from '../config/config.js';
import type { Store } from '../store/store.js';
import { BuiltinSpace, ProviderSpace } from './embedding-spaces.js';
import { BuiltinModel, modelLocations } from './models/builtin-model.js';
import { OpenAIEmbeddings } from './providers/openai-embeddings.js';
import { SemanticSearch } from './semantic-search.js';

type Log = (msg: string, extra?: Record<string, unknown>) => void;

/**
 * Semantic search for a daemon: the built-in model (always: it is the fallback) and, when
 * `embeddings.baseUrl` is configured, an OpenAI-compatible provider in front of it.
 */
export function createSemanticSearch(deps: { store: Store; config: Pick<Config, 'embeddings' | 'model'>; log?: Log }): SemanticSearch {
  const model = new BuiltinModel({
    ...modelLocations(deps.config.model),
    log: deps.log,
    lazy: false /* a lazy start left the first-start converter orphaned after a SIGKILLed daemon (test/cli/daemon-model.test.ts); cause not found yet */,
  });
  const builtin = new BuiltinSpace(deps.store, model);
  const { baseUrl, model: name, apiKey } = deps.config.embeddings;
  const provider = baseUrl ? new ProviderSpace(deps.store, new OpenAIEmbeddings({ baseUrl, model: name, apiKey }), deps.log) : undefined;
  return new SemanticSearch(builtin, provider);
}
