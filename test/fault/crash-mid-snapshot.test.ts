import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/config/paths.js';
import { Store } from '../../src/store/store.js';
import { removeHome, tempHome } from '../helpers/daemon.js';

/**
 * Issue 17: a snapshot is written a slice at a time while writes go on, so a crash can land in
 * the middle of one. A child process writes with a snapshot due after every write, on a store
 * big enough that each takes a while; it is killed (SIGKILL) while a snapshot's temp file is
 * being written. The next open must hold every write the child saw acknowledged, with its
 * content, and the store must go on (several rounds on one home).
 */
const ROUNDS = 4;
const DIST_STORE = join(import.meta.dirname, '..', '..', 'dist', 'store', 'store.js');
const CHILD = join(import.meta.dirname, 'snapshot-child.mjs');

describe('a crash in the middle of a snapshot', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it(`loses no acknowledged write (${ROUNDS} kills mid-snapshot)`, async () => {
    // A few thousand documents, so a snapshot spans many turns of the event loop.
    const seed = await Store.open(homePaths(home));
    await seed.transact((tx) => {
      for (let i = 0; i < 4000; i++) tx.put('traces', { uid: `seed-${i}`, user_id: 'u', task_id: 'seed', content: `seed ${i} ${'x'.repeat(300)}` } as never);
    });
    await seed.close();

    const acked = new Map<string, string>();
    let midSnapshot = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const child = spawn(process.execPath, [CHILD, DIST_STORE, home, String(round)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let buf = '';
      let acks = 0;
      child.stdout.on('data', (d) => {
        buf += d;
        const lines = buf.split('\n');
        buf = lines.pop()!;
        for (const l of lines) {
          const m = /^ack (\S+) (.*)$/.exec(l);
          if (m) {
            acked.set(m[1]!, m[2]!);
            acks++;
          }
        }
      });
      const exited = new Promise((ok) => child.once('exit', ok));
      // Kill once it has written a little and a snapshot's temp file is on disk.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const tmp = readdirSync(home).includes(`db.json.${child.pid}.tmp`);
        if ((acks > 20 * (round + 1) && tmp) || Date.now() > deadline) {
          child.kill('SIGKILL');
          if (tmp) midSnapshot++;
          break;
        }
        await new Promise((ok) => setTimeout(ok, 1));
      }
      await exited;
      const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000 });
      for (const [uid, content] of acked) expect(store.get('traces', uid)?.content, uid).toBe(content);
      expect(store.count('traces')).toBeGreaterThanOrEqual(4000 + acked.size);
      // The killed snapshot's temp file is cleared away at open.
      expect(readdirSync(home).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      await store.close();
    }
    expect(midSnapshot, 'kills that landed while a snapshot was being written').toBeGreaterThanOrEqual(ROUNDS - 1);
  }, 120_000);
});
