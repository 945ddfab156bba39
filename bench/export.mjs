// Summary export over 10,000 and 100,000 traces: cold (cache miss) and cached, in ms.
// Goals (issue 8): cold ≤ 250 ms at 100k, cached ≤ 5 ms. The store is seeded by writing db.json
// directly (a snapshot, no journal), so seeding 100k traces takes seconds, not minutes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homePaths } from '../dist/config/paths.js';
import { ExportService } from '../dist/domain/export/export-service.js';
import { tempoProfileParts } from '../dist/domain/tempo/tempo-service.js';
import { UsersService } from '../dist/domain/users/users-service.js';
import { emptyDb } from '../dist/store/schema.js';
import { Store } from '../dist/store/store.js';

const USER = 'usr_bench';
const T0 = Date.parse('2031-01-01T00:00:00Z');
const WORDS = 'the quarterly report gym session was basically really long and I think we should move the dentist to friday morning after the run'.split(' ');
const TYPES = ['goal', 'observation', 'reflection', 'agent_plan', 'calendar_event'];

function trace(i) {
  const ts = new Date(T0 + i * 7 * 60_000).toISOString();
  const words = Array.from({ length: 12 + (i % 20) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
  return {
    uid: `tr_bench_${String(i).padStart(7, '0')}`,
    user_id: USER,
    type: TYPES[i % TYPES.length],
    task_id: `task-${i % 50}`,
    timestamp: ts,
    content: `${words} (${i})`,
    importance: 1 + ((i * 31) % 5),
    ...(i % 3 === 0 ? { tempo_tag: '@morning' } : {}),
    version: 1,
    linked_trace_ids: i > 0 && i % 4 === 0 ? [`tr_bench_${String(i - 1).padStart(7, '0')}`] : [],
    child_trace_ids: [],
    authored_by: 'bench-agent',
    created_at: ts,
    updated_at: ts,
  };
}

async function seed(n) {
  const home = mkdtempSync(join(tmpdir(), 'kairos-bench-export-'));
  const db = emptyDb();
  const now = new Date(T0).toISOString();
  db.collections.users.push({
    user_id: USER,
    email: null,
    display_name: 'bench',
    timezone: 'Europe/Berlin',
    preferences: {},
    password_hash: null,
    is_owner: true,
    created_at: now,
    updated_at: now,
  });
  for (let i = 0; i < n; i++) db.collections.traces.push(trace(i));
  writeFileSync(homePaths(home).db, JSON.stringify(db), { mode: 0o600 });
  const store = await Store.open(homePaths(home), { snapshotEveryOps: 1e9, snapshotEveryMs: 3_600_000 });
  return { home, store };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(n, rows) {
  const { home, store } = await seed(n);
  try {
    const clock = { now: () => new Date() };
    const exporter = new ExportService(store, clock, new UsersService(store, clock, tempoProfileParts(store)), { cacheTtlMs: 15 * 60_000 });
    const p = { userId: USER, authUserId: USER, keyId: null, agentId: null, scopes: new Set(['export:read']), via: 'key' };
    const query = { user_id: USER, export_format: 'summary' };
    const once = async () => {
      const c = process.cpuUsage();
      const t = performance.now();
      const r = await exporter.export(p, query);
      const cpu = process.cpuUsage(c);
      return { ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, r };
    };
    const first = await once(); // loads the tokenizer once per process
    if (n === 10_000) rows.push({ name: 'first summary export after start (tokenizer load)', value: first.ms, unit: 'ms' });
    const cold = [];
    const coldCpu = [];
    for (let i = 0; i < 7; i++) {
      exporter.cache.clearAll();
      const { ms, cpuMs, r } = await once();
      if (r.cache !== 'MISS') throw new Error('expected a cache miss');
      cold.push(ms);
      coldCpu.push(cpuMs);
    }
    const cached = [];
    for (let i = 0; i < 50; i++) {
      const { ms, r } = await once();
      if (r.cache !== 'HIT') throw new Error('expected a cache hit');
      cached.push(ms);
    }
    const budget = [];
    for (let i = 0; i < 5; i++) {
      exporter.cache.clearAll();
      const t = performance.now();
      await exporter.export(p, { ...query, max_token_count: 2000, group_by: 'day' });
      budget.push(performance.now() - t);
    }
    const k = `${n / 1000}k`;
    rows.push({ name: `summary at ${k} traces, cold (median of 7)`, value: median(cold), unit: 'ms', goal: n === 100_000 ? '≤ 250 ms' : undefined });
    rows.push({ name: `summary at ${k} traces, cold (worst of 7)`, value: Math.max(...cold), unit: 'ms' });
    // CPU time is what the export itself costs; wall time also counts waiting on a busy machine.
    rows.push({ name: `summary at ${k} traces, cold, CPU time (median of 7)`, value: median(coldCpu), unit: 'ms' });
    rows.push({ name: `summary at ${k} traces, cached (median of 50)`, value: median(cached), unit: 'ms', goal: '≤ 5 ms' });
    rows.push({ name: `summary at ${k} traces, max_token_count + group_by day, cold`, value: median(budget), unit: 'ms' });
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const rows = [];
  for (const n of [10_000, 100_000]) await measure(n, rows);
  return rows;
}

// `node bench/export.mjs` on its own prints the rows.
if (import.meta.url === `file://${process.argv[1]}`)
  for (const r of await run()) console.log(`${r.name.padEnd(64)} ${r.value.toFixed(2).padStart(9)} ${r.unit}${r.goal ? `   (goal ${r.goal})` : ''}`);
