import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DavServer, davServerOf } from './dav-server.js';

/** Whether the Debian package `xandikos` is installed (its tests skip with one line otherwise). */
export const HAS_XANDIKOS = spawnSync('xandikos', ['--version'], { stdio: 'ignore' }).status === 0;

/** A free loopback port: xandikos does not report the port it got for 0. */
const freePort = () =>
  new Promise<number>((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/**
 * Xandikos, a second CalDAV server, on a loopback port in a temp folder; stopped by its pid. It
 * has no authentication of its own: the account's user name and password are sent and ignored.
 */
export async function startXandikos(): Promise<DavServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-xandikos-'));
  const port = await freePort();
  const child: ChildProcess = spawn('xandikos', ['-d', dir, '-l', '127.0.0.1', '-p', String(port), '--autocreate'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b));
  child.stderr!.on('data', (b: Buffer) => (out += b));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`xandikos exited (${child.exitCode}): ${out}`);
    const up = await fetch(`${base}/`, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 150) throw new Error(`xandikos did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return davServerOf({
    child,
    dir,
    base,
    user: 'alice',
    password: 'not checked by xandikos',
    collection: (name) => `${base}/user/calendars/${name}/`,
    storage: (name) => join(dir, 'user', 'calendars', name),
  });
}
