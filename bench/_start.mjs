// How long `kairos daemon run` takes from spawn to its first `/health` answer on an empty home,
// N times in a row (median and all): the module-loading part of the perf bench's restart row,
// without a store to read. Not part of `npm run bench`.
//
//   node bench/_start.mjs [runs=9]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from './_daemon.mjs';

const runs = Number(process.argv[2] ?? 9);
const home = mkdtempSync(join(tmpdir(), 'kairos-start-'));
const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const d = await startDaemon(home);
    for (;;) {
      try {
        if ((await fetch(`${d.base}/health`)).ok) break;
      } catch {
        // Not answering yet.
      }
    }
    times.push(performance.now() - t);
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
console.log(`spawn → /health: median ${times[times.length >> 1].toFixed(0)} ms over ${runs} runs (${times.map((x) => x.toFixed(0)).join(' ')})`);
