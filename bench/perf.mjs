// Issue 17: every figure of its table at each store size, with the floors measured in the same run.
// For each size a fresh home is filled over HTTP, the daemon is restarted (timed to /health), then
// pull, search, edit and push are loaded with autocannon (10 connections, like the issue's wrk),
// the CLI's round trip is timed as a whole process, and a snapshot of the stopped store is taken
// in-process under perf_hooks.monitorEventLoopDelay. Each figure is printed as a ratio to its
// floor; the 100k/1k ratio per endpoint and every goal's gap follow. JSON and a markdown table go
// to bench/results/ (latest.json, latest.md, and a dated copy).
//
//   npm run bench -- perf                         sizes 1000,10000,100000
//   npm run bench -- perf --sizes=1000,10000      fewer sizes; --duration=5 seconds per load run
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results');
const CORPUS = join(ROOT, '..', 'shared', 'fixtures', 'search', 'corpus.jsonl');
const CONNECTIONS = 10;
const FILL_BATCH = 1000;
export const PULL_TASK = 'bench-pull-ten';
export const RARE_WORD = 'quillwort';

const arg = (name, dflt) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[`KAIROS_BENCH_${name.toUpperCase()}`] ?? dflt;
const SIZES = arg('sizes', '1000,10000,100000').split(',').map(Number);
const DURATION = Number(arg('duration', '5'));

/** The share of one CPU a process used over `ms` (user + system ticks from /proc). */
export function cpuShare(pid, ms) {
  const ticks = () => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  const a = ticks();
  const t = Date.now();
  while (Date.now() - t < ms) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  return (ticks() - a) / 100 / (ms / 1000);
}
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
export const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** Deterministic, so every run pushes the same traces. */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Sentences to make traces of: the search fixture when ../shared is there, else a small built-in mix. */
export function corpus() {
  if (existsSync(CORPUS))
    return readFileSync(CORPUS, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  const words = 'plan meeting report gym run review budget travel dinner call draft family doctor garden invoice code release sleep book lesson'.split(' ');
  const r = rng(7);
  return Array.from({ length: 300 }, (_, i) => ({
    type: 'observation',
    task_id: `task-${i % 40}`,
    content: Array.from({ length: 14 }, () => words[Math.floor(r() * words.length)]).join(' '),
  }));
}

function makeTrace(i, sentences, rand) {
  const a = sentences[Math.floor(rand() * sentences.length)];
  const b = sentences[Math.floor(rand() * sentences.length)];
  const words = b.content.split(' ');
  const from = Math.floor(rand() * Math.max(1, words.length - 4));
  return {
    type: a.type,
    task_id: a.task_id,
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 600_000).toISOString(),
    content: `${a.content} ${words.slice(from, from + 4).join(' ')}`,
    ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
    importance: a.importance ?? 3,
  };
}

/** Spawn a child and resolve with its port once it prints "listening on …:port". */
function spawnListening(args, env, label) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const port = new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (?:https?:\/\/[^\n]*:)?(\d+)/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (c) => fail(new Error(`${label} exited with ${c}: ${err.slice(-2000)}`)));
  });
  return { child, port, t0 };
}

function daemonEnv(home) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAIROS_') && k !== 'DEBUG'));
  return { ...clean, NO_COLOR: '1', KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', DEBUG: 'true' };
}

/** Start the daemon on `home`; `startup_ms` is spawn → first 200 from /health. */
export async function startDaemon(home) {
  const { child, port: portP, t0 } = spawnListening([join(ROOT, 'bin', 'kairos.js'), 'daemon', 'run', '--port', '0'], daemonEnv(home), 'daemon');
  const port = await portP;
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(5);
  }
  const startup_ms = performance.now() - t0;
  const key = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')).api_key;
  const api = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json().catch(() => undefined);
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, base, key, api, stop, startup_ms, t0 };
}

/** One autocannon run; RSS of `pid` sampled every 100 ms meanwhile. */
export async function load(d, request, { connections = CONNECTIONS, duration = DURATION } = {}) {
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssOf(d.child.pid))), 100);
  const r = await autocannon({
    url: d.base,
    connections,
    duration,
    headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' },
    requests: [request],
  });
  clearInterval(sampler);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > r.requests.total * 0.01) throw new Error(`${request.method} ${request.path}: ${bad} of ${r.requests.total} requests failed`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: bad, rss_max_mb: rssMax };
}

/** write + fdatasync of 2 KB at the end of a file, 200 times: the floor under a durable write's latency. */
async function fsyncFloor() {
  const { open } = await import('node:fs/promises');
  const dir = mkdtempSync(join(tmpdir(), 'kairos-fsync-'));
  const fh = await open(join(dir, 'f'), 'w');
  const ms = [];
  const buf = Buffer.alloc(2048, 97);
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await fh.write(buf, 0, buf.length, i * buf.length);
    await fh.datasync();
    ms.push(performance.now() - t);
  }
  await fh.close();
  rmSync(dir, { recursive: true, force: true });
  ms.sort((a, b) => a - b);
  return { p50: ms[100], p99: ms[198] };
}

async function floorLoads() {
  const { child, port } = spawnListening([join(ROOT, 'bench', '_floors.mjs')], process.env, 'floors');
  const base = `http://127.0.0.1:${await port}`;
  const fake = { base, key: 'none', child };
  const body = JSON.stringify({ items: Array.from({ length: 16 }, (_, i) => ({ id: `item-${i}`, note: 'y'.repeat(40) })) });
  const get = await load(fake, { method: 'GET', path: '/' });
  const echo = await load(fake, { method: 'POST', path: '/', body });
  child.kill();
  return { koa_get: get, koa_echo: echo };
}

/** Wall time of a whole process, best of `n` (the floor of a start-up figure). */
export function processMs(args, env = process.env, n = 5) {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * A home with `size` traces of its owner: the daemon makes the owner and its key, then the store
 * is filled directly (the same staging as POST /memory/push, without 100 HTTP round trips), and
 * closed with a snapshot, as a daemon that has run for a while leaves it.
 */
export async function fillHome(size, sentences = corpus()) {
  const home = mkdtempSync(join(tmpdir(), `kairos-perf-${size}-`));
  const d = await startDaemon(home);
  await d.stop();
  const { Store } = await import(join(ROOT, 'dist', 'store', 'store.js'));
  const { homePaths } = await import(join(ROOT, 'dist', 'config', 'paths.js'));
  const { stageNewTrace } = await import(join(ROOT, 'dist', 'domain', 'memory', 'stage-trace.js'));
  const owner = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')).user_id;
  const rand = rng(size);
  const uids = [];
  const t = performance.now();
  // Ten traces of one task for pull, one with a rare word for search, the rest from the corpus.
  const special = [
    ...Array.from({ length: 10 }, (_, i) => ({ type: 'observation', task_id: PULL_TASK, content: `pull row ${i} of the bench task` })),
    { type: 'observation', task_id: 'botany', content: `Found a ${RARE_WORD} growing at the edge of the pond` },
  ];
  const store = await Store.open(homePaths(home), { snapshotEveryOps: 1e9, snapshotEveryMs: 3_600_000 });
  for (let i = 0; i < size; i += FILL_BATCH) {
    const traces = [];
    for (let j = i; j < Math.min(size - special.length, i + FILL_BATCH); j++) traces.push(makeTrace(j, sentences, rand));
    if (i + FILL_BATCH >= size) traces.push(...special);
    const now = new Date(Date.UTC(2026, 0, 1) + i * 1000);
    const staged = await store.transact((tx) => traces.map((input) => stageNewTrace(tx, { ...input, user_id: owner, authored_by: owner }, now)));
    for (const s of staged) uids.push(s.uid);
  }
  // A close leaves the journal for the next open to replay: the snapshot is taken here.
  await store.snapshot();
  await store.close();
  const fill_s = (performance.now() - t) / 1000;
  return { home, uids, fill_s };
}

/** A snapshot of the stopped store, in this process, with the event loop's delay monitored. */
async function snapshotStall(home) {
  const { Store } = await import(join(ROOT, 'dist', 'store', 'store.js'));
  const { homePaths } = await import(join(ROOT, 'dist', 'config', 'paths.js'));
  const store = await Store.open(homePaths(home), { snapshotEveryOps: 1e9, snapshotEveryMs: 3_600_000 });
  // One write so the snapshot has something to fold in (and is not skipped).
  await store.transact((tx) => tx.setMeta('bench_snapshot', Date.now()));
  const { LoopGapMonitor } = await import(join(ROOT, 'dist', 'server', 'loop-gap.js'));
  // Let the start's background work (sharing history rows) finish first.
  await sleep(3000);
  const h = monitorEventLoopDelay({ resolution: 5 });
  const gaps = new LoopGapMonitor(5);
  h.enable();
  gaps.start();
  gaps.read();
  const t = performance.now();
  await store.snapshot();
  const ms = performance.now() - t;
  h.disable();
  const g = gaps.read();
  await store.close();
  // max_delay_ms is the wall clock's (a shared machine's waits for a CPU included); hold_ms leaves those out.
  return { snapshot_ms: ms, max_delay_ms: h.max / 1e6, hold_ms: g.worst_hold_ms };
}

/** Ms from the daemon's spawn until semantic search answers (its index is full). */
export async function searchReady(d) {
  for (;;) {
    const r = await d.api('POST', '/memory/search', { query: 'warm-up probe', mode: 'semantic', limit: 1 });
    if (r.mode_used === 'semantic') return performance.now() - d.t0;
    await sleep(100);
  }
}

async function measureSize(size, sentences) {
  console.error(`## ${size} traces: filling`);
  const { home, uids, fill_s } = await fillHome(size, sentences);
  const db = join(home, 'db.json');
  const dbMb = statSync(db).size / 2 ** 20;
  const parseMs = processMs(['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(db)}, 'utf8'))`], process.env, 3);
  console.error(`## ${size} traces: filled in ${fill_s.toFixed(1)} s, db.json ${dbMb.toFixed(1)} MB; first start`);
  // A first start builds the search index from scratch and persists it at stop (<home>/search/),
  // as a daemon that has run for a while leaves its home; the restart after it is the one timed.
  const first = await startDaemon(home);
  const scratchMs = await searchReady(first);
  while (cpuShare(first.child.pid, 500) > 0.05) await sleep(100);
  await first.stop();
  console.error(`## ${size} traces: search index built from scratch in ${fmt(scratchMs)} ms; restarting`);
  const d = await startDaemon(home);
  const out = { size, db_mb: dbMb, fill_s, startup_ms: d.startup_ms, json_parse_process_ms: parseMs, search_scratch_ms: scratchMs };
  out.rss_at_health_mb = rssOf(d.child.pid);
  // Steady state: the search indexes fill themselves after /health (semantic search says so
  // meanwhile); the loads below measure the daemon once that is over.
  out.search_ready_ms = await searchReady(d);
  // …and the densities measured in the background after it: wait until the daemon idles.
  while (cpuShare(d.child.pid, 500) > 0.05) await sleep(100);
  out.idle_ms = performance.now() - d.t0;
  await sleep(500);
  out.rss_after_restart_mb = rssOf(d.child.pid);
  try {
    const rand = rng(size + 1);
    out.pull = await load(d, { method: 'GET', path: `/memory/pull?task_id=${PULL_TASK}` });
    const probe = await d.api('POST', '/memory/search', { query: RARE_WORD });
    if (!probe.results.length) throw new Error(`search for "${RARE_WORD}" found nothing`);
    out.search = await load(d, { method: 'POST', path: '/memory/search', body: JSON.stringify({ query: RARE_WORD }) });
    out.search_single = await load(d, { method: 'POST', path: '/memory/search', body: JSON.stringify({ query: RARE_WORD }) }, { connections: 1 });
    const cliEnv = { ...daemonEnv(home), DEBUG: '' };
    out.cli_ms = processMs([join(ROOT, 'bin', 'kairos.js'), '--json', 'trace', 'pull', '--task', PULL_TASK], cliEnv, 5);
    await d.api('GET', '/debug/event-loop');
    out.edit = await load(d, {
      method: 'PATCH',
      path: '/memory/edit',
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ uid: uids[Math.floor(rand() * uids.length)], updates: { importance: 1 + Math.floor(rand() * 5) } }),
      }),
    });
    out.push = await load(d, {
      method: 'POST',
      path: '/memory/push',
      body: JSON.stringify({ traces: [{ type: 'observation', task_id: 'bench-push', content: 'A pushed trace about the weekly review and the gym' }] }),
    });
    out.loop_during_writes = await d.api('GET', '/debug/event-loop');
    out.rss_under_load_mb = Math.max(out.pull.rss_max_mb, out.search.rss_max_mb, out.edit.rss_max_mb, out.push.rss_max_mb);
  } finally {
    await d.stop();
  }
  out.snapshot = await snapshotStall(home);
  rmSync(home, { recursive: true, force: true });
  return out;
}

const r2 = (x) => Math.round(x * 100) / 100;
const fmt = (x, digits = 0) =>
  x === undefined || Number.isNaN(x) ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Rows of the table: the figure at each size with its ratio to its floor, the 100k/1k ratio, and the goal's verdict. */
function table(floors, sizes) {
  const first = sizes[0];
  const last = sizes.at(-1);
  const scale = (f) => (first && last && first !== last ? r2(f(last) / f(first)) : undefined);
  const rows = [];
  const writeRow = (name, key) => {
    const ratio = (s) => s[key].rps / floors.koa_echo.rps;
    const growth = scale((s) => s[key].rps);
    const gaps = [];
    for (const s of sizes) if (ratio(s) < 0.6) gaps.push(`${fmt(s.size)}: ${r2(ratio(s))}× echo < 0.6×`);
    if (growth !== undefined && growth < 0.9) gaps.push(`${fmt(last.size)}/${fmt(first.size)} = ${growth} < 0.9`);
    for (const s of sizes) if (s[key].p99 > 10) gaps.push(`${fmt(s.size)}: p99 ${s[key].p99} ms > 10`);
    rows.push({
      figure: name,
      cells: sizes.map((s) => `${fmt(s[key].rps)}/s, p50 ${s[key].p50} ms, p99 ${s[key].p99} ms (${r2(ratio(s))}× echo)`),
      growth,
      goal: '≥ 0.6× echo, 100k/1k ≥ 0.9, p99 ≤ 10 ms',
      gaps,
    });
  };
  writeRow('`POST /memory/push`, 1 trace, durable', 'push');
  writeRow('`PATCH /memory/edit`', 'edit');
  {
    const ratio = (s) => s.pull.rps / floors.koa_get.rps;
    const growth = scale((s) => s.pull.rps);
    const gaps = sizes.filter((s) => ratio(s) < 0.5).map((s) => `${fmt(s.size)}: ${r2(ratio(s))}× GET < 0.5×`);
    if (growth !== undefined && growth < 0.9) gaps.push(`${fmt(last.size)}/${fmt(first.size)} = ${growth} < 0.9`);
    rows.push({
      figure: '`GET /memory/pull?task_id` (10 rows)',
      cells: sizes.map((s) => `${fmt(s.pull.rps)}/s, p50 ${s.pull.p50} ms (${r2(ratio(s))}× Koa GET)`),
      growth,
      goal: '≥ 0.5× Koa GET, 100k/1k ≥ 0.9',
      gaps,
    });
  }
  {
    const growth = scale((s) => s.search.rps);
    const gaps = last.size >= 100_000 && last.search_single.p50 > 2 ? [`p50 ${last.search_single.p50} ms > 2 ms at ${fmt(last.size)}`] : [];
    rows.push({
      figure: '`POST /memory/search` (rare word)',
      cells: sizes.map(
        (s) =>
          `${fmt(s.search.rps)}/s, p50 ${s.search.p50} ms (10 conn.); p50 ${s.search_single.p50} ms alone (${r2(s.search.rps / floors.koa_echo.rps)}× echo)`,
      ),
      growth,
      goal: 'p50 ≤ 2 ms at 100k (one connection)',
      gaps,
    });
  }
  {
    const ratio = (s) => s.startup_ms / s.json_parse_process_ms;
    const gaps = sizes.filter((s) => ratio(s) > 1.5).map((s) => `${fmt(s.size)}: ${r2(ratio(s))}× > 1.5×`);
    rows.push({
      figure: 'restart → `/health`',
      cells: sizes.map(
        (s) =>
          `${fmt(s.startup_ms)} ms (${r2(ratio(s))}× \`node -e\` + JSON.parse of ${fmt(s.db_mb, 1)} MB: ${fmt(s.json_parse_process_ms)} ms); search index full at ${fmt(s.search_ready_ms)} ms (from scratch: ${fmt(s.search_scratch_ms)} ms)`,
      ),
      growth: scale((s) => s.startup_ms),
      goal: '≤ 1.5× `node -e` + JSON.parse(db.json)',
      gaps,
    });
  }
  {
    const gaps = sizes.filter((s) => s.size >= 100_000 && s.rss_under_load_mb > 450).map((s) => `${fmt(s.size)}: ${fmt(s.rss_under_load_mb)} MB > 450`);
    rows.push({
      figure: 'RSS after restart / under load',
      cells: sizes.map((s) => `${fmt(s.rss_after_restart_mb)} / ${fmt(s.rss_under_load_mb)} MB`),
      growth: scale((s) => s.rss_under_load_mb),
      goal: '≤ 450 MB at 100k under load',
      gaps,
    });
  }
  {
    const gaps = sizes.filter((s) => s.size >= 100_000 && s.snapshot.hold_ms > 20).map((s) => `${fmt(s.size)}: held ${fmt(s.snapshot.hold_ms, 1)} ms > 20`);
    rows.push({
      figure: 'snapshot: event loop held, worst (wall-clock delay; duration)',
      cells: sizes.map((s) => `${fmt(s.snapshot.hold_ms, 1)} ms (${fmt(s.snapshot.max_delay_ms, 1)} ms; ${fmt(s.snapshot.snapshot_ms)} ms)`),
      growth: undefined,
      goal: '≤ 20 ms at 100k',
      gaps,
    });
  }
  {
    const ratio = (s) => s.cli_ms / floors.node_e0_ms;
    const gaps = sizes.filter((s) => ratio(s) > 1.6).map((s) => `${fmt(s.size)}: ${r2(ratio(s))}× > 1.6×`);
    rows.push({
      figure: 'CLI `kairos --json trace pull --task X`',
      cells: sizes.map((s) => `${fmt(s.cli_ms)} ms (${r2(ratio(s))}× \`node -e 0\`)`),
      growth: scale((s) => s.cli_ms),
      goal: '≤ 1.6× `node -e 0`',
      gaps,
    });
  }
  return rows;
}

function markdown(floors, sizes, rows, when) {
  const head = `| figure | ${sizes.map((s) => `at ${fmt(s.size)} traces`).join(' | ')} | ${fmt(sizes.at(-1).size)}/${fmt(sizes[0].size)} | goal | gap |`;
  const sep = `|${'---|'.repeat(sizes.length + 4)}`;
  const lines = rows.map((r) => `| ${r.figure} | ${r.cells.join(' | ')} | ${r.growth ?? '–'} | ${r.goal} | ${r.gaps.length ? r.gaps.join('; ') : 'met'} |`);
  return [
    `Measured ${when} on ${process.arch}, Node ${process.version}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, loopback.`,
    `Floors in the same run: bare Koa GET 1 KB JSON ${fmt(floors.koa_get.rps)}/s; koa-body POST echo 1 KB ${fmt(floors.koa_echo.rps)}/s; \`node -e 0\` ${fmt(floors.node_e0_ms)} ms; write + fdatasync of 2 KB p50 ${fmt(floors.fdatasync.p50, 1)} ms, p99 ${fmt(floors.fdatasync.p99, 1)} ms (a durable write waits for one: with ${CONNECTIONS} connections, group commit caps writes near ${fmt(CONNECTIONS / (floors.fdatasync.p50 / 1000))}/s).`,
    '',
    head,
    sep,
    ...lines,
    '',
  ].join('\n');
}

export async function run() {
  const sentences = corpus();
  console.error(`# sizes ${SIZES.join(', ')}; ${DURATION} s per load run`);
  const floors = { ...(await floorLoads()), node_e0_ms: processMs(['-e', '0'], process.env, 10), fdatasync: await fsyncFloor() };
  const sizes = [];
  for (const size of SIZES) sizes.push(await measureSize(size, sentences));
  const rows = table(floors, sizes);
  const when = new Date().toISOString();
  const md = markdown(floors, sizes, rows, when);
  mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify({ when, sizes: SIZES, duration_s: DURATION, connections: CONNECTIONS, floors, results: sizes, table: rows }, null, 2);
  const stamp = when.replace(/[:.]/g, '-');
  for (const [name, text] of [
    [`perf-${stamp}.json`, json],
    [`perf-${stamp}.md`, md],
    ['latest.json', json],
    ['latest.md', md],
  ])
    writeFileSync(join(RESULTS, name), text);
  // In the house format, so that the results can be committed as they are (biome ci checks bench/).
  const written = ['latest.json', 'latest.md', `perf-${stamp}.json`, `perf-${stamp}.md`].map((f) => join(RESULTS, f));
  spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', ...written], { stdio: 'ignore' });
  console.log(md);
  return [];
}
