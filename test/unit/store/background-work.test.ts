import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { shareTraceVersions } from '../../../src/domain/memory/share-versions.js';
import { emptyDb } from '../../../src/store/schema.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

/**
 * Issue 17: work a start leaves for later (sharing the first history rows of what db.json held)
 * must go on by itself while the daemon idles. It ran on unref'd setImmediate turns, which Node
 * does not run while only a listening server keeps the loop alive: they advanced only when a
 * request woke the loop, so every request at 100k paid a slice of it and the memory it frees
 * stayed held until traffic came.
 */
describe('Store background work after a start', () => {
  it('shares every first history row with its trace while the process idles with a listening server', async () => {
    const home = tempHome();
    homes.push(home);
    const p = homePaths(home);
    const n = 20_000;
    const db = emptyDb();
    const ts = '2026-01-01T00:00:00.000Z';
    for (let i = 0; i < n; i++) {
      const uid = `tr_${String(i).padStart(6, '0')}`;
      const trace = {
        uid,
        user_id: 'u1',
        task_id: `t${i % 50}`,
        type: 'observation',
        content: `trace number ${i} about the garden`,
        timestamp: ts,
        version: 1,
      };
      db.collections.traces.push(trace as never);
      db.collections.trace_versions.push({
        id: `${uid}#1`,
        uid,
        user_id: 'u1',
        version: 1,
        timestamp: ts,
        actor: 'u1',
        patch: [{ op: 'add', path: '', value: { ...trace } }],
      } as never);
    }
    writeFileSync(p.db, JSON.stringify(db));
    const server = createServer((_q, r) => r.end()).listen(0, '127.0.0.1');
    const store = await Store.open(p, { snapshotEveryMs: 3_600_000 });
    shareTraceVersions(store);
    try {
      const shared = () => {
        let k = 0;
        for (const row of store.all('trace_versions')) if ((row.patch as { value?: unknown }[])[0]!.value === store.get('traces', row.uid)) k++;
        return k;
      };
      // Nothing else wakes the loop meanwhile: one timer, far in the future.
      await new Promise((ok) => setTimeout(ok, 3000));
      expect(shared()).toBe(n);
    } finally {
      server.close();
      await store.close();
    }
  });
});
