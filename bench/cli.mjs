// CLI cold start as whole processes against a bare `node -e 0` (issue 17: goal ≤ 1.6×): `--help`,
// a verb's help, and round trips to a running daemon found through its home (daemon.json, as a
// user runs it) and through KAIROS_URL: `status`, `queue` and `trace pull`. The commands run
// round-robin, so a noisy machine slows them all alike; each wall figure is a median. Each is also
// given as CPU time (user + system, the mean of the children's ticks from /proc): on a machine
// shared with other work the wall clock mostly measures the wait for a core, the CPU time does not.
//
//   npm run bench -- cli                          a fresh home with 10 traces
//   npm run bench -- cli --cli-sizes=1000,100000  also homes of that many traces (filled as
//                                                 bench/perf.mjs does; the daemon idles first)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from './_daemon.mjs';

const BIN = fileURLToPath(new URL('../bin/kairos.js', import.meta.url));
const GOAL = 1.6;
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 21);
const SIZES = (process.argv.find((a) => a.startsWith('--cli-sizes='))?.slice(12) ?? process.env.BENCH_CLI_SIZES ?? '').split(',').filter(Boolean).map(Number);
const PULL_TASK = 'bench-pull-ten'; // the task bench/perf.mjs's fillHome gives ten traces
const TICK_MS = 10; // /proc counts CPU time in clock ticks of 1/100 s

/** CPU time of this process's waited-for children so far (cutime + cstime), in ms. */
function childrenCpuMs() {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

function once(args, env) {
  const cpu = childrenCpuMs();
  const t = performance.now();
  execFileSync(process.execPath, args, { stdio: 'ignore', env });
  return { wall: performance.now() - t, cpu: childrenCpuMs() - cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Wait until the daemon uses under 5% of a core (a filled home indexes itself after a start). */
async function idle(pid, maxMs = 600_000) {
  const ticks = () => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    const a = ticks();
    await sleep(1000);
    if ((ticks() - a) * TICK_MS < 50) return;
  }
}

/** A home and its daemon: a fresh one with ten traces of PULL_TASK, or bench/perf.mjs's filled one. */
async function homeOf(size) {
  let home;
  if (size) {
    const { fillHome } = await import('./perf.mjs');
    console.error(`# cli: filling a home with ${size} traces`);
    ({ home } = await fillHome(size));
  } else home = mkdtempSync(join(tmpdir(), 'kairos-bench-cli-'));
  const d = await startDaemon(home);
  if (size) await idle(d.child.pid);
  else {
    const push = await fetch(`${d.base}/memory/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ traces: Array.from({ length: 10 }, (_, i) => ({ type: 'observation', task_id: PULL_TASK, content: `run ${i}` })) }),
    });
    if (push.status !== 201) throw new Error(`push answered ${push.status}`);
  }
  return { home, d, label: size ? `${size.toLocaleString('en')} traces` : 'fresh home' };
}

export async function run() {
  const homes = [await homeOf(0)];
  try {
    for (const size of SIZES) homes.push(await homeOf(size));
    const base = { ...process.env, NO_COLOR: '1', KAIROS_RATE_LIMIT: '0' };
    for (const k of Object.keys(base)) if (k.startsWith('KAIROS_') && k !== 'KAIROS_RATE_LIMIT') delete base[k];
    const first = homes[0];
    const cases = [
      ['node -e 0 (floor)', ['-e', '0'], base],
      ['kairos --help', [BIN, '--help'], base],
      ['kairos keys create --help', [BIN, 'keys', 'create', '--help'], base],
      [
        'kairos --json status (KAIROS_URL)',
        [BIN, '--json', 'status'],
        { ...base, KAIROS_HOME: first.home, KAIROS_URL: first.d.base, KAIROS_API_KEY: first.d.key },
      ],
    ];
    for (const { home, label } of homes) {
      const viaHome = { ...base, KAIROS_HOME: home };
      cases.push([`kairos --json status (home, ${label})`, [BIN, '--json', 'status'], viaHome]);
      cases.push([`kairos --json queue (home, ${label})`, [BIN, '--json', 'queue'], viaHome]);
      cases.push([`kairos --json trace pull --task ${PULL_TASK} (home, ${label})`, [BIN, '--json', 'trace', 'pull', '--task', PULL_TASK], viaHome]);
    }
    for (const [, args, env] of cases) once(args, env); // warm the file cache
    const times = cases.map(() => []);
    for (let r = 0; r < ROUNDS; r++) cases.forEach(([, args, env], i) => times[i].push(once(args, env)));
    const floor = median(times[0].map((t) => t.wall));
    const floorCpu = mean(times[0].map((t) => t.cpu));
    const rows = [
      { name: 'node -e 0 (floor, median)', value: floor, unit: 'ms' },
      { name: 'node -e 0 (floor, CPU time)', value: floorCpu, unit: 'ms' },
    ];
    for (let i = 1; i < cases.length; i++) {
      const ms = median(times[i].map((t) => t.wall));
      const ratio = ms / floor;
      const cpu = mean(times[i].map((t) => t.cpu));
      rows.push({ name: `${cases[i][0]} (median)`, value: ms, unit: 'ms' });
      rows.push({
        name: `${cases[i][0]} / node -e 0`,
        value: ratio,
        unit: '×',
        goal: `≤ ${GOAL}×${ratio <= GOAL ? ', met' : `, missed by ${((ratio / GOAL - 1) * 100).toFixed(0)}%`}`,
      });
      rows.push({ name: `${cases[i][0]} CPU time / node -e 0's`, value: cpu / floorCpu, unit: '×' });
    }
    return rows;
  } finally {
    for (const { home, d } of homes) {
      d.child.kill('SIGTERM');
      await new Promise((r) => d.child.once('exit', r));
      rmSync(home, { recursive: true, force: true });
    }
  }
}

// Run alone: `node bench/cli.mjs [--cli-sizes=1000,100000]` (after npm run build).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await run())
    console.log(`${r.name.padEnd(72)} ${r.value.toFixed(r.unit === '×' ? 2 : 0).padStart(7)} ${r.unit}${r.goal ? `   (goal ${r.goal})` : ''}`);
}
