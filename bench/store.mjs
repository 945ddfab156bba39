// Store write cost must not grow with the store: one-trace transactions at 1k and 100k traces
// (journal + fdatasync), and the background snapshot time at 100k.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homePaths } from '../dist/config/paths.js';
import { Store } from '../dist/store/store.js';

const doc = (i) => ({
  uid: `tr_bench_${i}`,
  user_id: 'usr_bench',
  task_id: `task-${i % 100}`,
  type: 'observation',
  timestamp: new Date(1_800_000_000_000 + i * 60_000).toISOString(),
  content: `bench trace number ${i} about the quarterly report and the gym`,
  importance: 3,
  version: 1,
});

async function writeLatency(store, n, from) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await store.transact((tx) => tx.put('traces', doc(from + i)));
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)], p99: ms[Math.floor(n * 0.99)] };
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'kairos-bench-'));
  try {
    const store = await Store.open(homePaths(home), { snapshotEveryOps: 1e9, snapshotEveryMs: 3_600_000 });
    for (let i = 0; i < 1000; i += 500)
      await store.transact((tx) => {
        for (let j = i; j < i + 500; j++) tx.put('traces', doc(j));
      });
    const small = await writeLatency(store, 200, 1_000_000);
    for (let i = 1000; i < 100_000; i += 2000)
      await store.transact((tx) => {
        for (let j = i; j < i + 2000; j++) tx.put('traces', doc(j));
      });
    const big = await writeLatency(store, 200, 2_000_000);
    let t = performance.now();
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.transact((tx) => tx.put('traces', doc(3_000_000 + i)))));
    const burst = performance.now() - t;
    t = performance.now();
    await store.snapshot();
    const snap = performance.now() - t;
    t = performance.now();
    await store.close();
    const reopenStart = performance.now();
    const again = await Store.open(homePaths(home));
    const reopen = performance.now() - reopenStart;
    await again.close();
    return [
      { name: 'one-trace write at 1k traces p50', value: small.p50, unit: 'ms' },
      { name: 'one-trace write at 1k traces p99', value: small.p99, unit: 'ms' },
      { name: 'one-trace write at 100k traces p50', value: big.p50, unit: 'ms', goal: 'same as at 1k' },
      { name: 'one-trace write at 100k traces p99', value: big.p99, unit: 'ms' },
      { name: '200 concurrent writes at 100k (group commit)', value: burst, unit: 'ms' },
      { name: 'background snapshot of 100k traces', value: snap, unit: 'ms' },
      { name: 'open a 100k-trace store', value: reopen, unit: 'ms' },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
