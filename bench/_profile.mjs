// Where a daemon at a given store size spends its time under load: fills a home (as the perf
// bench does), starts the daemon with the inspector on, waits until it idles, then loads each
// phase with autocannon (10 connections) while the CPU profiler runs, and prints each phase's
// throughput, RSS and top self-time frames. The profiles are kept (.cpuprofile, for DevTools).
//
//   node bench/_profile.mjs [size=100000] [phases=pull,edit,push,search] [seconds=5]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { phaseRequests, startInspected, waitIdle } from './_inspected.mjs';
import { fillHome } from './perf.mjs';

const size = Number(process.argv[2] ?? 100_000);
const phases = (process.argv[3] ?? 'pull,edit,push,search').split(',');
const seconds = Number(process.argv[4] ?? 5);

/** The top self-time frames of a CPU profile. */
function top(profile, n = 15) {
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = (dt.get(node.id) ?? 0) / 1000;
    total += ms;
    const cf = node.callFrame;
    const k = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${cf.lineNumber + 1}`;
    self.set(k, (self.get(k) ?? 0) + ms);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

console.error(`# filling ${size} traces`);
const { home, uids } = await fillHome(size);
const out = mkdtempSync(join(tmpdir(), 'kairos-profile-'));
const d = await startInspected(home);
const { child, base, headers, call } = d;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;

await waitIdle(d);
console.log(`${size} traces, idle; RSS ${rss().toFixed(0)} MB`);
await call('Profiler.enable');
const requests = phaseRequests(uids);
for (const phase of phases) {
  await call('Profiler.start');
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rss())), 100);
  const r = await autocannon({ url: base, connections: 10, duration: seconds, headers, requests: [requests[phase]] });
  clearInterval(sampler);
  const { profile } = await call('Profiler.stop');
  const file = join(out, `${phase}-${size}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`\n## ${phase}: ${Math.round(r.requests.average)}/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, RSS ≤ ${rssMax.toFixed(0)} MB (${file})`);
  console.log(top(profile));
}
await d.stop();
rmSync(home, { recursive: true, force: true });
