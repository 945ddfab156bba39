import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/config/paths.js';
import { Store } from '../../src/store/store.js';
import { BIN, cleanEnv, removeHome, tempHome } from '../helpers/daemon.js';

/**
 * A home larger than the daemon's heap may hold is refused at start with the command that gives
 * it room, not left to V8's out-of-memory crash halfway through reading it. The daemon runs with
 * a small heap (80 MB) and the home holds about 105 MB.
 */
describe('a home larger than the heap', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('is refused with the command that starts the daemon with room for it', async () => {
    const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000 });
    for (let i = 0; i < 100; i++) {
      await store.transact((tx) => tx.put('traces', { uid: `t${i}`, user_id: 'u', task_id: 'big', content: `${i}`.padEnd(1 << 20, 'x') } as never));
    }
    await store.close();
    const r = spawnSync(process.execPath, ['--max-old-space-size=32', BIN, 'daemon', 'run', '--port', '0'], {
      env: cleanEnv({ KAIROS_HOME: home }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/more than this process's heap limit of \d+ MB can hold/);
    expect(r.stderr).toMatch(/NODE_OPTIONS=--max-old-space-size=\d+ kairos daemon start/);
  });
});
