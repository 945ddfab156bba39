// src/search — search as infrastructure: the keyword and vector indexes, the built-in model's files
// and the child processes that make them, the embedding provider's HTTP client, all kept in step
// with the store's commits. It implements the ports of src/domain/memory/search-port.ts.
//
// The rule: src/search may import node, npm packages, src/config, src/contracts and src/store (it
// follows commits), and from src/domain only the port types (search-port.ts). No domain file
// imports src/search: the composition root (src/server/services.ts) builds search through this
// file and hands the ports to the memory service. Scripts and tests may reach single files.
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Store } from '../store/store.js';
import { createSemanticSearch } from './create-semantic-search.js';
import { followStore, KeywordIndex } from './indexes/keyword-index.js';
import type { SearchLog } from './search-log.js';

/**
 * Both searches of a daemon, following the store: the keyword index (filled now, updated on every
 * commit) and the semantic search (built-in model, and the configured provider in front of it).
 */
export function createSearch(deps: { store: Store; config: Pick<Config, 'embeddings' | 'model'>; log?: SearchLog }) {
  const keyword = new KeywordIndex();
  // Persisted beside the store: a start reads each trace's terms from it instead of making them again.
  followStore(deps.store, keyword, { file: join(deps.store.paths.home, 'search', 'keyword-index.bin'), log: deps.log });
  const semantic = createSemanticSearch({ ...deps, words: keyword, after: keyword.whenLoaded() });
  return { keyword, semantic };
}
