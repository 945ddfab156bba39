// A daemon for the profiling scripts (_profile.mjs, _memory.mjs): started with the inspector on a
// loopback port, driven over its WebSocket (CPU profiles, heap statistics, collections), and
// waited on until it idles. Not part of `npm run bench`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Start `kairos daemon run` on `home` under the inspector; `nodeArgs` and `env` are added to its own. */
export async function startInspected(home, { nodeArgs = [], env: extraEnv = {} } = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('KAIROS_')));
  const child = spawn(process.execPath, [...nodeArgs, '--inspect=127.0.0.1:0', join(ROOT, 'bin', 'kairos.js'), 'daemon', 'run', '--port', '0'], {
    env: { ...env, ...extraEnv, KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', NO_COLOR: '1', DEBUG: 'true' },
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
  /** One inspector protocol call (e.g. 'Profiler.start'), answered with its result. */
  const call = (method, params = {}) => new Promise((ok) => waiting.set(++seq, ok) && ws.send(JSON.stringify({ id: seq, method, params })));
  /** CPU ticks (user + system) the daemon has used. */
  const ticks = () => {
    const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  const stop = async () => {
    ws.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { child, base, headers, call, ticks, stop };
}

/** Until the search indexes are full (a semantic query answers semantically) and three seconds pass quietly (≤ 5% of a CPU). */
export async function waitIdle({ base, headers, ticks }) {
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
}

/** The autocannon request of each load phase (as the perf bench loads them): edit walks `uids` in a fixed stride. */
export function phaseRequests(uids) {
  let n = 0;
  return {
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
}
