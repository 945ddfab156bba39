import { afterAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../../../src/search/models/builtin-model.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

/**
 * The semantic index built from scratch (a first start on a large home) holds a few batches of
 * writes on their way through the embedding thread, whatever the number of traces: the backlog
 * hands the pipeline a write only when it has room, and a result applied is let go at once, so
 * neither a job nor a vector per trace is ever held.
 */
const TRACES = 5000;
/** A few batches of 128 texts: far below TRACES, however the turns fall. */
const BOUND = 1024;

const home = tempHome();
afterAll(() => removeHome(home));

const topics = ['doctor appointment about back pain', 'bicycle repair, new brakes', 'birthday presents for my sister', 'database outage at work'];
const trace = (i: number) => ({
  uid: `t${i}`,
  user_id: 'u',
  type: 'observation',
  task_id: `task-${i % 9}`,
  content: `${topics[i % 4]} (note ${i})`,
  version: 1,
});

describe('the semantic index built from scratch', () => {
  it('holds a bounded number of writes in its embedding pipeline, not one per trace', async () => {
    const store = await Store.open(homePaths(home), { snapshotEveryMs: 3_600_000 });
    await store.transact((tx) => {
      for (let i = 0; i < TRACES; i++) tx.put('traces', trace(i) as never);
    });
    const model = new BuiltinModel({ cacheDirs: [SHIPPED_MODEL_DIR] });
    const space = new BuiltinSpace(store, model);
    await model.complete;
    // Looked at every turn of the event loop (the pipeline changes only between turns) until
    // every trace has its row: the most jobs it held, and the most results it kept (applied or not).
    const pipeline = space['pipeline'];
    let held = 0;
    let kept = 0;
    while (space.behind > 0 || (space.current?.index.size ?? 0) < TRACES) {
      held = Math.max(held, pipeline.size);
      kept = Math.max(kept, pipeline['ready'].length);
      await new Promise((ok) => setImmediate(ok));
    }
    expect(space.current!.index.size).toBe(TRACES);
    expect(held, 'jobs in the pipeline at once').toBeLessThanOrEqual(BOUND);
    expect(kept, 'results kept at once').toBeLessThanOrEqual(BOUND);
    await space.close();
    await store.close();
  }, 120_000);
});
