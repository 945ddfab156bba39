import type { StoredTrace } from '../../contracts/memory.js';
import type { Store } from '../../store/store.js';

/** Follow every committed trace write (puts and deletes) of the store. */
export function followTraces(store: Store, onPut: (t: StoredTrace) => void, onDel: (uid: string) => void): () => void {
  return store.changes('traces', (changes) => {
    for (const c of changes) {
      if (c.op === 'put') onPut(c.doc);
      else onDel(c.id);
    }
  });
}
