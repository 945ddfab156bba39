import { afterEach, describe, expect, it, vi } from 'vitest';
import { OnDemandWorker } from '../../../src/platform/on-demand-worker.js';

// A thread that echoes `{id, n}` doubled, exits on `die`, and dies on its first `starts.dieFirst`
// starts (counted in shared memory across threads).
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const starts = new Int32Array(workerData.starts);
const nth = Atomics.add(starts, 0, 1) + 1;
parentPort.on('message', (m) => {
  if (m.die || nth <= workerData.dieFirst) process.exit(3);
  parentPort.postMessage({ id: m.id, n: m.n * 2 });
});`;
const script = () =>
  new URL(`data:text/javascript,${encodeURIComponent(`import { createRequire } from 'node:module'; const require = createRequire('file:///'); ${SCRIPT}`)}`);

type Call = { n: number; die?: boolean };
type Reply = { id: number; n: number };
const made: OnDemandWorker<Call, Reply>[] = [];
afterEach(async () => {
  for (const w of made.splice(0)) await w.close();
});
function worker(o: { dieFirst?: number; resend?: number; giveUp?: boolean; idleMs?: number } = {}) {
  const starts = new SharedArrayBuffer(4);
  const w = new OnDemandWorker<Call, Reply>({
    name: 'the test thread',
    script,
    options: () => ({ workerData: { starts, dieFirst: o.dieFirst ?? 0 } }),
    idleMs: o.idleMs ?? 60_000,
    resend: o.resend,
    giveUp: o.giveUp,
  });
  made.push(w);
  return { w, starts: () => new Int32Array(starts)[0] };
}

describe('OnDemandWorker', () => {
  it('starts at the first call, answers each call by its id, and stops once idle', async () => {
    const { w, starts } = worker({ idleMs: 10 });
    expect(w.running).toBe(false);
    const answers = await Promise.all([1, 2, 3].map((n) => w.call({ n })));
    expect(answers.map((a) => a.n)).toEqual([2, 4, 6]);
    expect(starts()).toBe(1);
    await vi.waitFor(() => expect(w.running).toBe(false));
    expect((await w.call({ n: 5 })).n).toBe(10);
    expect(starts()).toBe(2);
  });

  it('fails what a dead thread owed, and starts another for the next call', async () => {
    const { w } = worker();
    await expect(w.call({ n: 1, die: true })).rejects.toThrow('the test thread exited with code 3');
    expect(w.pending).toBe(0);
    expect((await w.call({ n: 4 })).n).toBe(8);
  });

  it('sends what it owed again to a new thread, up to `resend` deaths in a row, then gives up for good', async () => {
    const resent = worker({ dieFirst: 2, resend: 2 });
    expect((await resent.w.call({ n: 7 })).n).toBe(14);
    expect(resent.starts()).toBe(3);

    const given = worker({ dieFirst: 10, resend: 2, giveUp: true });
    await expect(given.w.call({ n: 1 })).rejects.toThrow('exited with code 3');
    expect(given.starts()).toBe(3);
    await expect(given.w.call({ n: 1 })).rejects.toThrow('exited with code 3');
    expect(given.starts()).toBe(3);
  });

  it('refuses calls once closed', async () => {
    const { w } = worker();
    await w.close();
    await expect(w.call({ n: 1 })).rejects.toThrow('the test thread is closed');
  });
});
