import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';
import { prng } from '../../helpers/fuzz-gen.js';

/**
 * Issue 17: snapshots are taken when the journal has grown past a share of db.json, written a
 * slice at a time while writes go on. Whatever the interleaving, db.json plus the journal must
 * hold exactly what was acknowledged. Random sequences of puts, deletes, meta writes, concurrent
 * batches and snapshots (seeded: a failing seed replays), with snapshot thresholds from "every
 * operation" to "rarely"; at random points the home's files are copied as a crash would leave
 * them (journal segments first, then db.json, while a background snapshot may be running) and
 * opened: each copy, and the store reopened at the end, must equal a plain model of the writes.
 */
const SEEDS = 12;
const STEPS = 120;

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});
const home = () => {
  const h = tempHome();
  homes.push(h);
  return h;
};

type Model = { traces: Map<string, Record<string, unknown>>; checkpoints: Map<string, Record<string, unknown>>; meta: Map<string, unknown> };

/** What a store holds, in a comparable shape. */
function contents(s: Store) {
  const by = (docs: Record<string, unknown>[], key: string) => Object.fromEntries(docs.map((d) => [d[key] as string, d]));
  return {
    traces: by(s.all('traces') as unknown as Record<string, unknown>[], 'uid'),
    checkpoints: by(s.all('checkpoints') as unknown as Record<string, unknown>[], 'id'),
    meta: Object.fromEntries(['m0', 'm1', 'm2', 'm3'].flatMap((k) => (s.getMeta(k) === undefined ? [] : [[k, s.getMeta(k)]]))),
  };
}
const expected = (m: Model) => ({
  traces: Object.fromEntries(m.traces),
  checkpoints: Object.fromEntries(m.checkpoints),
  meta: Object.fromEntries(m.meta),
});

/** Copy a live home as a crash would leave it: the journal's segments first, db.json after. */
function crashCopy(from: string): string {
  const to = home();
  mkdirSync(to, { recursive: true });
  for (const n of readdirSync(from).filter((n) => n.startsWith('db.journal.'))) {
    try {
      copyFileSync(join(from, n), join(to, n));
    } catch {
      // Retired meanwhile by a snapshot: the db.json copied next covers it.
    }
  }
  try {
    copyFileSync(join(from, 'db.json'), join(to, 'db.json'));
  } catch {
    // No snapshot yet: the journal alone.
  }
  return to;
}

describe('snapshot + journal hold exactly the acknowledged writes (random operation sequences)', () => {
  it(`${SEEDS} seeds × ${STEPS} steps, with crash copies along the way`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rand = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const h = home();
      const opts = {
        snapshotEveryOps: pick([1, 3, 10, 50]),
        snapshotJournalFraction: pick([0, 0.05, 0.25, 1]),
        snapshotEveryMs: pick([5, 50, 3_600_000]),
        backups: pick([0, 1, 3]),
      };
      const store = await Store.open(homePaths(h), opts);
      const model: Model = { traces: new Map(), checkpoints: new Map(), meta: new Map() };
      const uids = Array.from({ length: 12 }, (_, i) => `t${i}`);
      let version = 0;

      /** One random transaction; the model changes only once it is acknowledged. */
      const one = () => {
        const kind = rand();
        const uid = pick(uids);
        if (kind < 0.5) {
          const doc = { uid, user_id: pick(['u1', 'u2']), task_id: pick(['a', 'b']), content: `v${++version} ${'x'.repeat(Math.floor(rand() * 400))}` };
          return store.transact((tx) => tx.put('traces', doc)).then(() => void model.traces.set(uid, doc));
        }
        if (kind < 0.65) return store.transact((tx) => tx.delete('traces', uid)).then(() => void model.traces.delete(uid));
        if (kind < 0.8) {
          const k = pick(['m0', 'm1', 'm2', 'm3']);
          const v = { n: ++version };
          return store.transact((tx) => tx.setMeta(k, v)).then(() => void model.meta.set(k, v));
        }
        // Two collections in one transaction: all or nothing.
        const id = `c${Math.floor(rand() * 5)}`;
        const doc = { uid, user_id: 'u1', task_id: 'a', content: `pair ${++version}` };
        const cp = { id, user_id: 'u1', at: version };
        return store
          .transact((tx) => {
            tx.put('traces', doc);
            tx.put('checkpoints', cp as never);
          })
          .then(() => {
            model.traces.set(uid, doc);
            model.checkpoints.set(id, cp);
          });
      };

      for (let step = 0; step < STEPS; step++) {
        const r = rand();
        if (r < 0.6) await one();
        else if (r < 0.8) await Promise.all(Array.from({ length: 1 + Math.floor(rand() * 8) }, one));
        else if (r < 0.88) await store.snapshot();
        else if (r < 0.94) await new Promise((ok) => setTimeout(ok, Math.floor(rand() * 15)));
        else {
          // No write in flight now; a snapshot may be, at any point of its work.
          const copy = await Store.open(homePaths(crashCopy(h)), { snapshotEveryMs: 3_600_000 });
          expect(contents(copy), `seed ${seed} step ${step}: crash copy`).toEqual(expected(model));
          await copy.close();
        }
      }
      await store.close();
      const again = await Store.open(homePaths(h));
      expect(contents(again), `seed ${seed}: reopened (${JSON.stringify(opts)})`).toEqual(expected(model));
      await again.close();
    }
  }, 120_000);
});
