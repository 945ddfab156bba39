// What holds a daemon's memory at a given store size (issue 17: RSS ≤ 450 MB at 100k under load).
// Fills a home as the perf bench does (or takes one: --home=DIR), starts the daemon with the
// inspector on, waits until its search indexes are full and it idles, then prints, after the
// restart and after a load of pull, search, edit and push (autocannon, 10 connections): RSS (and
// its anonymous and file-backed parts), process.memoryUsage(), V8's heap spaces, and the same
// after a full GC, so that live data, V8's headroom and what lies outside V8's heap separate.
//
//   node bench/_memory.mjs [size=100000] [--home=DIR] [--seconds=3] [--node-args="--max-semi-space-size=2"] [--env="MALLOC_ARENA_MAX=2"]
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { phaseRequests, startInspected, waitIdle } from './_inspected.mjs';
import { fillHome } from './perf.mjs';

const opt = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const size = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 100_000);
const seconds = Number(opt('seconds', '3'));
const nodeArgs = opt('node-args', '').split(' ').filter(Boolean);
const extraEnv = Object.fromEntries(
  opt('env', '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => kv.split('=')),
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MB = 2 ** 20;

const given = opt('home', '');
const home = given || (await fillHome(size)).home;
const uids = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')).collections.traces.map((t) => t.uid);
const d = await startInspected(home, { nodeArgs, env: extraEnv });
const { child, base, headers, call } = d;
const evaluate = async (expression) => JSON.parse((await call('Runtime.evaluate', { expression, returnByValue: false })).result.value);

/** RSS from /proc in MB: the whole, the anonymous (heap, malloc) and the file-backed (code) parts. */
function procRss() {
  const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), hwm: kb('VmHWM') };
}

const inside = `JSON.stringify((() => {
  const v8 = process.getBuiltinModule('node:v8');
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
  const h = v8.getHeapStatistics();
  return { m, spaces, malloced: h.malloced_memory, external: h.external_memory };
})())`;

/** The figures as found, and (collect=true) after a full GC too: what is live, the rest being V8's headroom and garbage. */
async function report(label, collect) {
  const before = { proc: procRss(), v8: await evaluate(inside) };
  const shown = [['as found', before]];
  if (collect) {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    shown.push(['after full GC', { proc: procRss(), v8: await evaluate(inside) }]);
  }
  const f = (x) => (x / MB).toFixed(1);
  console.log(`\n## ${label}`);
  for (const [name, s] of shown) {
    const { m, spaces, malloced } = s.v8;
    console.log(
      `${name}: RSS ${s.proc.rss.toFixed(0)} MB (anon ${s.proc.anon.toFixed(0)}, file ${s.proc.file.toFixed(0)}; peak ${s.proc.hwm.toFixed(0)}); heapTotal ${f(m.heapTotal)}, heapUsed ${f(m.heapUsed)}, external ${f(m.external)} (arrayBuffers ${f(m.arrayBuffers)}), V8 malloced ${f(malloced)}`,
    );
    console.log(
      `  spaces (size/used MB): ${Object.entries(spaces)
        .filter(([, v]) => v.size > MB / 2)
        .map(([k, v]) => `${k} ${f(v.size)}/${f(v.used)}`)
        .join(', ')}`,
    );
  }
}

await waitIdle(d);
console.log(`${size} traces; node ${[...nodeArgs].join(' ') || '(no flags)'}; env ${JSON.stringify(extraEnv)}`);
await report('after restart, idle', false);
const wait = Number(opt('wait', '0'));
if (wait) {
  await sleep(wait * 1000);
  await report(`${wait} s later, idle`, false);
}
const requests = phaseRequests(uids);
let rssMax = 0;
const sampler = setInterval(() => (rssMax = Math.max(rssMax, procRss().rss)), 100);
for (const phase of Object.keys(requests)) {
  const r = await autocannon({ url: base, connections: 10, duration: seconds, headers, requests: [requests[phase]] });
  console.log(`${phase}: ${Math.round(r.requests.average)}/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms; RSS max so far ${rssMax.toFixed(0)} MB`);
}
clearInterval(sampler);
console.log(`RSS under load, max: ${rssMax.toFixed(0)} MB`);
await report('after the load', true);
await d.stop();
if (!given) rmSync(home, { recursive: true, force: true });
