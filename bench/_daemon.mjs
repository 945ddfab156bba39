// The real daemon for a bench: `kairos daemon run --port 0` on the given home, no rate limit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Resolves once it listens, with its child process, base URL and owner key. */
export async function startDaemon(home) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/kairos.js'), 'daemon', 'run', '--port', '0'], {
    env: { ...process.env, KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', NO_COLOR: '1' },
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
