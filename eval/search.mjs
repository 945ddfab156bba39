#!/usr/bin/env node
// Search evaluation: pushes ../shared/fixtures/search/corpus.jsonl into a real daemon (temp home),
// sends every query as POST /memory/search {query, mode, limit: 10} for keyword, semantic and
// hybrid, and prints recall@5 and MRR@10 per query kind and overall, ending with the headline
//   search recall@5 0.62 mrr@10 0.55
// Options: --fixtures DIR (corpus.jsonl + queries.jsonl or dev-queries.jsonl), --verbose (every
// hybrid query that misses a relevant trace in its top 5). Needs a build (npm run build).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODES = ['keyword', 'semantic', 'hybrid'];
const GOALS = { all: 0.85, paraphrase: 0.75 };
/** The first start of a machine prepares the built-in model: a few minutes, more on a busy machine. */
const MODEL_WAIT_MS = 1_200_000;

/**
 * Spawn `kairos daemon run --port 0` on a temp home (or the given one); `api(method, path, body)`
 * calls it with the owner's key. Also used by bench/search.mjs.
 */
export async function spawnDaemon({ env = {}, nodeArgs = [], home = mkdtempSync(join(tmpdir(), 'kairos-search-')) } = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAIROS_') && k !== 'DEBUG'));
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin', 'kairos.js'), 'daemon', 'run', '--port', '0'], {
    env: { ...clean, NO_COLOR: '1', KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const port = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`daemon did not start: ${err}`)), 120_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on https?:\/\/[^\n]*:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`daemon exited with ${code}: ${err}`));
    });
  });
  const { api_key: key } = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8'));
  const base = `http://127.0.0.1:${port}`;
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
  /** SIGTERM (the store is flushed to db.json), then remove the home unless told to keep it. */
  const stop = async ({ keepHome = false } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (!keepHome) rmSync(home, { recursive: true, force: true });
  };
  return { home, pid: child.pid, base, api, stop };
}

/** Wait until semantic search answers with the whole built-in model (both halves loaded). */
export async function waitForModel(api) {
  const until = Date.now() + MODEL_WAIT_MS;
  for (;;) {
    const r = await api('POST', '/memory/search', { query: 'model warm-up probe', mode: 'semantic', limit: 1 });
    if (r.mode_used === 'semantic' && !r.embeddings?.preparing) return r.embeddings;
    if (Date.now() > until) throw new Error(`semantic search did not become available: ${r.embeddings?.fallback_reason ?? r.embeddings?.preparing}`);
    await new Promise((ok) => setTimeout(ok, 1000));
  }
}

const readJsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** recall@5 and MRR@10 of one ranked uid list. */
export function score(ranked, relevant) {
  const top5 = new Set(ranked.slice(0, 5));
  const recall = relevant.filter((u) => top5.has(u)).length / relevant.length;
  const first = ranked.slice(0, 10).findIndex((u) => relevant.includes(u));
  return { recall, mrr: first < 0 ? 0 : 1 / (first + 1) };
}

export async function run(argv = process.argv.slice(2)) {
  const opt = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = resolve(opt('fixtures') ?? join(ROOT, '..', 'shared', 'fixtures', 'search'));
  const queriesFile = ['queries.jsonl', 'dev-queries.jsonl'].map((f) => join(dir, f)).find(existsSync);
  if (!existsSync(join(dir, 'corpus.jsonl')) || !queriesFile) {
    console.log(`search eval: no corpus.jsonl and queries in ${dir} (use --fixtures DIR)`);
    return { name: 'search', goalMet: false };
  }
  const corpus = readJsonl(join(dir, 'corpus.jsonl'));
  const queries = readJsonl(queriesFile);
  const d = await spawnDaemon();
  try {
    const embeddings = await waitForModel(d.api);
    for (let i = 0; i < corpus.length; i += 500) await d.api('POST', '/memory/push', { traces: corpus.slice(i, i + 500) });
    const table = {};
    const misses = [];
    for (const mode of MODES) {
      for (const q of queries) {
        const r = await d.api('POST', '/memory/search', { query: q.query, mode, limit: 10 });
        if (r.mode_used !== mode) throw new Error(`${mode} search answered ${r.mode_used}: ${r.embeddings?.fallback_reason}`);
        const ranked = r.results.map((x) => x.uid);
        const s = score(ranked, q.relevant);
        for (const kind of [q.kind, 'all']) {
          const cell = ((table[mode] ??= {})[kind] ??= { recall: 0, mrr: 0, n: 0 });
          cell.recall += s.recall;
          cell.mrr += s.mrr;
          cell.n++;
        }
        if (mode === 'hybrid' && s.recall < 1)
          misses.push(
            `  ${q.id} ${q.kind} "${q.query}" recall@5 ${s.recall.toFixed(2)}: top ${ranked.slice(0, 5).join(' ')}; relevant ${q.relevant.join(' ')}`,
          );
      }
    }
    const kinds = [...new Set(queries.map((q) => q.kind)), 'all'];
    console.log(`search eval: ${corpus.length} traces, ${queries.length} queries (${queriesFile}); embeddings ${embeddings.provider} ${embeddings.model}`);
    console.log(`${'mode'.padEnd(9)} ${kinds.map((k) => `${k} (${table.hybrid[k].n})`.padStart(22)).join('')}`);
    for (const mode of MODES) {
      const cells = kinds.map((k) => {
        const c = table[mode][k];
        return `r@5 ${(c.recall / c.n).toFixed(2)} mrr ${(c.mrr / c.n).toFixed(2)}`.padStart(22);
      });
      console.log(`${mode.padEnd(9)} ${cells.join('')}`);
    }
    if (argv.includes('--verbose')) console.log(misses.join('\n'));
    const h = (k) => (table.hybrid[k] ? table.hybrid[k].recall / table.hybrid[k].n : undefined);
    const overall = h('all');
    const mrr = table.hybrid.all.mrr / table.hybrid.all.n;
    const paraphrase = h('paraphrase');
    const goalMet = overall >= GOALS.all && (paraphrase === undefined || paraphrase >= GOALS.paraphrase);
    console.log(
      `goal: hybrid recall@5 >= ${GOALS.all} overall (${overall.toFixed(2)}) and >= ${GOALS.paraphrase} on paraphrase (${paraphrase?.toFixed(2) ?? 'n/a'}): ${goalMet ? 'met' : 'NOT met'}`,
    );
    console.log(`search recall@5 ${overall.toFixed(2)} mrr@10 ${mrr.toFixed(2)}`);
    return { name: 'search', goalMet, recall5: overall, mrr10: mrr, paraphraseRecall5: paraphrase };
  } finally {
    await d.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  process.exitCode = r.goalMet ? 0 : 1;
}
