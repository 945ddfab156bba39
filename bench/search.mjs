// Search latency and memory: a real daemon (temp home) filled with 10,000 then 100,000 traces made
// from the search fixture's sentences, each query of the fixture sent in every mode (HTTP round
// trip, p50/p99), and the daemon's RSS at 100,000 traces against the size of its db.json. The
// floor under every round trip is measured in the same run: a bare koa-body POST that echoes a
// query-sized body (bench/_floors.mjs), sent the same way; each p50 at 100k is also shown over it.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnDaemon, waitForModel } from '../eval/search.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, '..', 'shared', 'fixtures', 'search');
const MODES = ['keyword', 'semantic', 'hybrid'];
const ROUNDS = 5;
const BATCH = 1000;

const readJsonl = (f) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** A deterministic pseudo-random generator, so every run pushes the same traces. */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** The i-th synthetic trace: a fixture sentence with a few words of another, at its own time. */
function makeTrace(i, corpus, rand) {
  const a = corpus[Math.floor(rand() * corpus.length)];
  const b = corpus[Math.floor(rand() * corpus.length)];
  const words = b.content.split(' ');
  const from = Math.floor(rand() * Math.max(1, words.length - 4));
  return {
    uid: `b${String(i).padStart(6, '0')}`,
    type: a.type,
    task_id: a.task_id,
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 600_000).toISOString(),
    content: `${a.content} ${words.slice(from, from + 4).join(' ')}`,
    ...(a.tempo_tag ? { tempo_tag: a.tempo_tag } : {}),
    importance: a.importance ?? 3,
  };
}

/** Push traces [from, to) in batches; returns the mean time per trace (ms). */
async function fill(d, from, to, corpus, rand) {
  const t = performance.now();
  for (let i = from; i < to; i += BATCH) {
    const traces = [];
    for (let j = i; j < Math.min(to, i + BATCH); j++) traces.push(makeTrace(j, corpus, rand));
    await d.api('POST', '/memory/push', { traces });
  }
  return (performance.now() - t) / (to - from);
}

async function latencies(d, queries) {
  const out = {};
  for (const mode of MODES) {
    const ms = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const q of queries) {
        const t = performance.now();
        const res = await d.api('POST', '/memory/search', { query: q.query, mode, limit: 10 });
        ms.push(performance.now() - t);
        if (res.mode_used !== mode) throw new Error(`${mode} answered ${res.mode_used}`);
      }
    }
    ms.sort((a, b) => a - b);
    out[mode] = { p50: ms[Math.floor(ms.length * 0.5)], p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] };
  }
  return out;
}

/** p50 of a koa-body POST echo of a query-sized body, sent as the searches are (the floor of their round trip). */
async function echoFloor(queries) {
  const child = spawn(process.execPath, [join(ROOT, 'bench', '_floors.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise((ok, fail) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (\d+)/.exec(out);
        if (m) ok(Number(m[1]));
      });
      child.once('exit', (c) => fail(new Error(`floors exited with ${c}`)));
    });
    const ms = [];
    for (let r = 0; r < ROUNDS + 1; r++) {
      for (const q of queries) {
        const t = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: q.query, mode: 'hybrid', limit: 10 }),
        });
        await res.json();
        if (r > 0) ms.push(performance.now() - t);
      }
    }
    ms.sort((a, b) => a - b);
    return ms[Math.floor(ms.length * 0.5)];
  } finally {
    child.kill();
  }
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

export async function run() {
  const corpus = readJsonl(join(FIXTURES, 'corpus.jsonl'));
  const queries = readJsonl(join(FIXTURES, 'dev-queries.jsonl'));
  const rand = rng(42);
  const d = await spawnDaemon();
  const rows = [];
  let again;
  try {
    await waitForModel(d.api);
    await fill(d, 0, 10_000, corpus, rand);
    // Embedding runs behind the commit: on a busy machine the index may still be filling.
    await waitForModel(d.api);
    await latencies(d, queries.slice(0, 5)); // warm-up: JIT, caches
    const small = await latencies(d, queries);
    const pushMs = await fill(d, 10_000, 100_000, corpus, rand);
    await waitForModel(d.api);
    await latencies(d, queries.slice(0, 5));
    const big = await latencies(d, queries);
    const ingestRss = rssOf(d.pid);
    const floor = await echoFloor(queries);
    rows.push({ name: 'floor: koa-body POST echo p50 (same run)', value: floor, unit: 'ms' });
    for (const mode of MODES) rows.push({ name: `${mode} search at 100k traces p50 over the floor`, value: big[mode].p50 - floor, unit: 'ms' });
    for (const [n, r] of [
      ['10k', small],
      ['100k', big],
    ]) {
      for (const mode of MODES) {
        rows.push({ name: `${mode} search at ${n} traces p50`, value: r[mode].p50, unit: 'ms' });
        rows.push({
          name: `${mode} search at ${n} traces p99`,
          value: r[mode].p99,
          unit: 'ms',
          ...(mode === 'hybrid' && n === '100k' ? { goal: '<= 30 ms' } : {}),
        });
      }
    }
    // Stopping flushes the store: db.json then holds all 100,000 traces. The daemon's memory is
    // measured on a fresh start over that home (what a user's daemon holds), after a round of
    // queries; the RSS right after ingesting is shown too (V8 keeps the heap it grew to).
    await d.stop({ keepHome: true });
    const dbBytes = statSync(join(d.home, 'db.json')).size;
    const restart = performance.now();
    again = await spawnDaemon({ home: d.home });
    await waitForModel(again.api);
    const readyMs = performance.now() - restart;
    await latencies(again, queries);
    const rss = rssOf(again.pid);
    await again.stop({ keepHome: true });
    rows.push({ name: 'push from 10k to 100k traces, per trace (batches of 1000)', value: pushMs, unit: 'ms' });
    rows.push({ name: 'restart to semantic search ready at 100k traces', value: readyMs, unit: 'ms' });
    rows.push({ name: 'daemon RSS right after pushing 100k traces', value: ingestRss / 2 ** 20, unit: 'MiB' });
    rows.push({ name: 'daemon RSS serving 100k traces', value: rss / 2 ** 20, unit: 'MiB' });
    rows.push({ name: 'db.json at 100k traces', value: dbBytes / 2 ** 20, unit: 'MiB' });
    rows.push({ name: 'RSS / db.json at 100k traces', value: rss / dbBytes, unit: 'x', goal: '<= 4' });
    return rows;
  } finally {
    await again?.stop({ keepHome: true });
    await d.stop();
  }
}
