// CLI cold start as whole processes against a bare `node -e 0` (issue 17: goal ≤ 1.6×): `--help`,
// a verb's help, and round trips to a running daemon, found through its home (daemon.json and a
// /health check, as a user runs it) and through KAIROS_URL. The commands run round-robin, so
// a noisy machine slows them all alike, and each figure is a median.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from './_daemon.mjs';

const BIN = fileURLToPath(new URL('../bin/kairos.js', import.meta.url));
const GOAL = 1.6;
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 21);

function once(args, env) {
  const t = performance.now();
  execFileSync(process.execPath, args, { stdio: 'ignore', env });
  return performance.now() - t;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run() {
  const home = mkdtempSync(join(tmpdir(), 'kairos-bench-cli-'));
  const d = await startDaemon(home);
  try {
    // The daemon's address where the CLI looks for it (daemon run --port 0 writes it too).
    const base = { ...process.env, NO_COLOR: '1', KAIROS_RATE_LIMIT: '0' };
    for (const k of Object.keys(base)) if (k.startsWith('KAIROS_') && k !== 'KAIROS_RATE_LIMIT') delete base[k];
    const viaHome = { ...base, KAIROS_HOME: home };
    const viaUrl = { ...base, KAIROS_HOME: home, KAIROS_URL: d.base, KAIROS_API_KEY: d.key };
    const push = await fetch(`${d.base}/memory/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ traces: Array.from({ length: 10 }, (_, i) => ({ type: 'observation', task_id: 'bench', content: `run ${i}` })) }),
    });
    if (push.status !== 201) throw new Error(`push answered ${push.status}`);
    const cases = [
      ['node -e 0 (floor)', ['-e', '0'], base],
      ['kairos --help', [BIN, '--help'], base],
      ['kairos keys create --help', [BIN, 'keys', 'create', '--help'], base],
      ['kairos --json status (home)', [BIN, '--json', 'status'], viaHome],
      ['kairos --json status (KAIROS_URL)', [BIN, '--json', 'status'], viaUrl],
      ['kairos --json trace pull --task bench (home)', [BIN, '--json', 'trace', 'pull', '--task', 'bench'], viaHome],
    ];
    for (const [, args, env] of cases) once(args, env); // warm the file cache
    const times = cases.map(() => []);
    for (let r = 0; r < ROUNDS; r++) cases.forEach(([, args, env], i) => times[i].push(once(args, env)));
    const floor = median(times[0]);
    const rows = [{ name: 'node -e 0 (floor, median)', value: floor, unit: 'ms' }];
    for (let i = 1; i < cases.length; i++) {
      const ms = median(times[i]);
      const ratio = ms / floor;
      rows.push({ name: `${cases[i][0]} (median)`, value: ms, unit: 'ms' });
      rows.push({
        name: `${cases[i][0]} / node -e 0`,
        value: ratio,
        unit: '×',
        goal: `≤ ${GOAL}×${ratio <= GOAL ? ', met' : `, missed by ${((ratio / GOAL - 1) * 100).toFixed(0)}%`}`,
      });
    }
    return rows;
  } finally {
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}

// Run alone: `node bench/cli.mjs` (after npm run build).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await run())
    console.log(`${r.name.padEnd(56)} ${r.value.toFixed(r.unit === '×' ? 2 : 0).padStart(7)} ${r.unit}${r.goal ? `   (goal ${r.goal})` : ''}`);
}
