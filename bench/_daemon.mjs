// The real daemon for a bench: `kairos daemon run --port 0` on the given home, no rate limit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Resolves once it listens, with its child process, base URL and owner key. `env` adds to its environment. */
export async function startDaemon(home, env = {}) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/kairos.js'), 'daemon', 'run', '--port', '0'], {
    env: { ...process.env, KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on https?:\/\/[^\n]*:(\d+)\n/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (c) => fail(new Error(`daemon exited ${c}`)));
  });
  const key = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')).api_key;
  return { child, base: `http://127.0.0.1:${port}`, key };
}

/**
 * The worst event-loop gap since the previous read, from the daemon's own 5 ms timer (needs
 * DEBUG=true): `gap` as the clock saw it, `hold` less the time the daemon waited for a CPU.
 */
export async function loopGap(d) {
  const r = await fetch(`${d.base}/debug/event-loop`, { headers: { authorization: `Bearer ${d.key}` } });
  if (r.status !== 200) throw new Error(`/debug/event-loop answered ${r.status}: start the daemon with DEBUG=true`);
  const j = await r.json();
  return { gap: j.worst_gap_ms, hold: j.worst_hold_ms };
}
