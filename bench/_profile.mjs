// Where a daemon at a given store size spends its time under load: fills a home (as the perf
// bench does), starts the daemon with the inspector on, waits until it idles, then loads each
// phase with autocannon (10 connections) while the CPU profiler runs, and prints each phase's
// throughput, RSS and top self-time frames. The profiles are kept (.cpuprofile, for DevTools).
//
//   node bench/_profile.mjs [size=100000] [phases=pull,edit,push,search] [seconds=5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { fillHome } from './perf.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const size = Number(process.argv[2] ?? 100_000);
const phases = (process.argv[3] ?? 'pull,edit,push,search').split(',');
const seconds = Number(process.argv[4] ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAIROS_')));
const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', join(ROOT, 'bin', 'kairos.js'), 'daemon', 'run', '--port', '0'], {
  env: { ...env, KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', NO_COLOR: '1', DEBUG: 'true' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stdout = '';
let stderr = '';
const wsUrl = new Promise((ok) => child.stderr.on('data', (d) => (stderr += d) && /ws:\/\/\S+/.test(stderr) && ok(/ws:\/\/\S+/.exec(stderr)[0])));
const port = await new Promise((ok, fail) => {
  child.stdout.on('data', (d) => {
    stdout += d;
    const m = /listening on https?:\/\/[^\n]*:(\d+)\n/.exec(stdout);
    if (m) ok(Number(m[1]));
  });
  child.once('exit', (c) => fail(new Error(`daemon exited ${c}: ${stderr.slice(-2000)}`)));
});
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')).api_key}`, 'content-type': 'application/json' };
const ws = new WebSocket(await wsUrl);
await new Promise((ok) => ws.once('open', ok));
let seq = 0;
const waiting = new Map();
ws.on('message', (m) => {
  const j = JSON.parse(m);
  waiting.get(j.id)?.(j.result);
  waiting.delete(j.id);
});
const call = (method, params = {}) => new Promise((ok) => waiting.set(++seq, ok) && ws.send(JSON.stringify({ id: seq, method, params })));
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
const ticks = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};

// Idle: the search indexes full (semantic answers) and three quiet seconds (≤ 5% of a CPU).
for (;;) {
  const r = await fetch(`${base}/memory/search`, { method: 'POST', headers, body: JSON.stringify({ query: 'warm', mode: 'semantic', limit: 1 }) }).then((x) =>
    x.json(),
  );
  if (r.mode_used === 'semantic') break;
  await sleep(500);
}
for (let quiet = 0; quiet < 3; ) {
  const a = ticks();
  await sleep(1000);
  quiet = ticks() - a <= 5 ? quiet + 1 : 0;
}
console.log(`${size} traces, idle; RSS ${rss().toFixed(0)} MB`);
await call('Profiler.enable');
let n = 0;
const requests = {
  pull: { method: 'GET', path: '/memory/pull?task_id=bench-pull-ten' },
  search: { method: 'POST', path: '/memory/search', body: JSON.stringify({ query: 'quillwort' }) },
  edit: {
    method: 'PATCH',
    path: '/memory/edit',
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ uid: uids[(n++ * 7919) % uids.length], updates: { importance: 1 + (n % 5) } }) }),
  },
  push: {
    method: 'POST',
    path: '/memory/push',
    body: JSON.stringify({ traces: [{ type: 'observation', task_id: 'bench-push', content: 'A pushed trace about the weekly review and the gym' }] }),
  },
};
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
ws.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(home, { recursive: true, force: true });
