import { afterAll } from 'vitest';
import { homePaths } from '../../src/config/paths.js';
import { BuiltinSpace } from '../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../src/search/models/builtin-model.js';
import { SemanticSearch } from '../../src/search/semantic-search.js';
import { Store } from '../../src/store/store.js';
import { removeHome, tempHome } from './daemon.js';

/**
 * A store in a temp home with the built-in model's space over it, its embedding on a thread of
 * its own or (inline) on the event loop; the homes go when the test file ends.
 */
export function builtinSpaces() {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeHome));
  return async (inline: boolean) => {
    const home = tempHome();
    homes.push(home);
    const store = await Store.open(homePaths(home));
    const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
    const s = new BuiltinSpace(store, model, { inline });
    await model.complete;
    return { store, s, search: new SemanticSearch(s), close: () => Promise.all([s.close(), model.close(), store.close()]) };
  };
}
