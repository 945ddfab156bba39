import { spawn } from 'node:child_process';
import { mkdir, open, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type DaemonState, readDaemonState } from '../config/daemon-state.js';
import { DIR_MODE, homePaths } from '../config/paths.js';
import { assertOwnHome } from '../config/paths-trust.js';
import { AppError } from '../errors.js';
import { pidAlive } from '../platform/process.js';
import { localUrl } from './daemon-url.js';
import { type OpeningProgress, openingProgress } from './opening-progress.js';
import { request } from './request.js';
import { trustedDaemonState } from './trusted-daemon.js';

const BIN = fileURLToPath(new URL('../../bin/kairos.js', import.meta.url));
const START_TIMEOUT_MS = 10_000;
/**
 * A daemon that has taken its home's lock by the 10 s mark is starting (opening the store,
 * loading the model), only slowly: a machine under heavy load. It gets this long in all before it
 * is stopped, rather than being killed a moment before it answers.
 */
const START_GRACE_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await request(new URL(url + '/health'), { method: 'GET', timeoutMs: 1000 });
    return r.status >= 200 && r.status < 300;
  } catch {
    return false;
  }
}

export { localUrl } from './daemon-url.js';

/** The running daemon of this home, if daemon.json names a live process that answers /health. */
export async function runningDaemon(home: string, env: NodeJS.ProcessEnv): Promise<DaemonState | undefined> {
  const s = await trustedDaemonState(home, env);
  if (!s || !pidAlive(s.pid)) return undefined;
  return (await healthy(localUrl(s))) ? s : undefined;
}

/**
 * The live process holding the home's lock, if any: a daemon that is starting (or stuck before
 * it listens). Read leniently (a JSON `pid`, else the first number in the file), so any lock
 * format that names the pid works.
 */
export async function lockHolder(home: string): Promise<number | undefined> {
  const text = await readFile(homePaths(home).lock, 'utf8').catch(() => '');
  let pid = Number(/\d+/.exec(text)?.[0]);
  try {
    const held = JSON.parse(text) as { pid?: unknown };
    if (typeof held?.pid === 'number') pid = held.pid;
  } catch {
    // Plain text: the pid alone.
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid) ? pid : undefined;
}

/**
 * Wait for the daemon another process is starting on this home (it holds the lock) to answer.
 * Undefined when nothing is starting any more, or at the deadline.
 */
export async function awaitStartingDaemon(home: string, env: NodeJS.ProcessEnv, deadline = Date.now() + START_TIMEOUT_MS): Promise<DaemonState | undefined> {
  for (;;) {
    const s = await runningDaemon(home, env);
    if (s) return s;
    if (!(await lockHolder(home))) return runningDaemon(home, env);
    if (Date.now() >= deadline && !(await openingProgress(homePaths(home).daemonLog))) return undefined;
    await sleep(POLL_MS);
  }
}

/**
 * The one-line reason a daemon gave for not starting: the last "kairos: …" line it wrote to
 * daemon.log since `from` (never older lines): an error line whose message starts "kairos: " (or
 * such a text line, from a daemon of an older version).
 */
async function startError(log: string, from: number): Promise<string | undefined> {
  const fh = await open(log, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    await fh.read(buf, 0, buf.length, from);
    const lines = buf
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .map((l) => {
        if (!l.startsWith('{')) return l;
        try {
          const o = JSON.parse(l) as { level?: number; msg?: string };
          return (o.level ?? 0) >= 50 && typeof o.msg === 'string' ? o.msg : '';
        } catch {
          return l;
        }
      })
      .filter((l) => l.startsWith('kairos: '));
    return lines.at(-1)?.slice('kairos: '.length);
  } finally {
    await fh.close();
  }
}

/** Kill a daemon that never listened: SIGTERM, then SIGKILL if it does not go. */
async function killUnstarted(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 2000;
  while (pidAlive(pid) && Date.now() < deadline) await sleep(50);
  if (pidAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

export interface StartOptions {
  /** Arguments for `daemon run` (--port, --host, TLS). */
  args?: string[];
  /**
   * Whether the daemon may listen on another free port when its configured one is taken (not
   * when the port is given with --port: that choice is the user's).
   */
  portFallback?: boolean;
  /** Called when this call spawns the daemon (not when it joins another command's start). */
  onSpawn?: () => void;
  /** Called once, when the daemon is still opening a large store as the usual wait ends. */
  onOpening?: (p: OpeningProgress) => void;
}

/**
 * Become the one command that starts this home's daemon: create `daemon.starting` holding our pid.
 * False while another live command holds it; a file left by a dead one is taken over.
 */
async function claimStart(marker: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(marker, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const text = await readFile(marker, 'utf8').catch(() => undefined);
      if (text === undefined) continue; // removed meanwhile: try again
      const pid = Number(text.trim());
      const age = Date.now() - ((await stat(marker).catch(() => undefined))?.mtimeMs ?? 0);
      // Empty for a moment while its creator writes the pid; for seconds only if it died.
      if (pid > 0 ? pidAlive(pid) : age < 2000) return false;
      await unlink(marker).catch(() => {});
    }
  }
  return false;
}

async function releaseStart(marker: string): Promise<void> {
  const text = await readFile(marker, 'utf8').catch(() => '');
  if (text.trim() === String(process.pid)) await unlink(marker).catch(() => {});
}

/**
 * Start the home's daemon in the background and wait for it (10 s; up to 30 s for a daemon that
 * is visibly starting on a loaded machine; as long as it takes a daemon to open a large store
 * while it logs how far it is: src/client/opening-progress.ts). Commands that do
 * this at the same moment (several commands on a stopped home) agree through `daemon.starting`:
 * one spawns the daemon, the others wait for it instead of failing or spawning daemons that can
 * only lose the home's lock.
 */
export async function startDetached(home: string, env: NodeJS.ProcessEnv, o: StartOptions = {}): Promise<DaemonState> {
  const paths = homePaths(home);
  await mkdir(home, { recursive: true, mode: DIR_MODE });
  // As long as the starting command may wait for its daemon (it gives up and lets go by then).
  const deadline = Date.now() + START_GRACE_MS + 5000;
  while (!(await claimStart(paths.daemonStarting))) {
    const s = await runningDaemon(home, env);
    if (s) return s;
    if (Date.now() > deadline && !(await openingProgress(paths.daemonLog))) {
      throw new AppError(
        503,
        'daemon_unreachable',
        `Another command has been starting the kairos daemon for ${Math.round((START_GRACE_MS + 5000) / 1000)} s without success (log: ${paths.daemonLog}).`,
      );
    }
    await sleep(POLL_MS);
  }
  try {
    // It may have come up between our first look and the claim.
    const running = await runningDaemon(home, env);
    if (running) return running;
    o.onSpawn?.();
    return await spawnAndWait(home, env, o);
  } finally {
    await releaseStart(paths.daemonStarting);
  }
}

/**
 * Spawn `kairos daemon run` detached, output to daemon.log, and wait for /health. Should another
 * daemon win the home's lock (a `daemon run` in the foreground, say), ours exits and we wait for
 * that one. A daemon that does not come up is stopped: nothing is left running.
 */
async function spawnAndWait(home: string, env: NodeJS.ProcessEnv, o: StartOptions): Promise<DaemonState> {
  const paths = homePaths(home);
  const log = await open(paths.daemonLog, 'a', 0o600);
  const logFrom = (await log.stat()).size;
  const args = ['daemon', 'run', '--log-json', ...(o.args ?? []), ...(o.portFallback ? ['--port-fallback'] : [])];
  const child = spawn(process.execPath, [BIN, ...args], {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    env: { ...env, KAIROS_HOME: home },
  });
  child.unref();
  await log.close();
  let exited: number | null = null;
  child.once('exit', (code, signal) => (exited = code ?? (signal ? 128 : 1)));
  child.once('error', () => (exited ??= 1));
  const spawnedAt = Date.now();
  let deadline = spawnedAt + START_TIMEOUT_MS;
  // Ours gone and no other daemon seen: given up only when that holds a few polls in a row (a
  // lock file can be empty for a moment while its daemon writes its pid into it).
  let alone = 0;
  let told = false;
  for (;;) {
    if (Date.now() >= deadline) {
      const starting = exited === null && child.pid !== undefined && (await lockHolder(home)) === child.pid;
      // Opening a large store, and saying how far it is: waited for as long as that goes on.
      const opening = starting ? await openingProgress(paths.daemonLog) : undefined;
      if (opening) {
        if (!told) o.onOpening?.(opening);
        told = true;
        deadline = Date.now() + POLL_MS;
      } else {
        if (!starting || deadline >= spawnedAt + START_GRACE_MS) break;
        deadline = spawnedAt + START_GRACE_MS;
      }
    }
    const s = await trustedDaemonState(home, env);
    // Ours, or the daemon of a command that won the race to start it: either serves this home.
    if (s && pidAlive(s.pid) && (await healthy(localUrl(s)))) return s;
    if (exited !== null) {
      const other = (await lockHolder(home)) ?? (s && pidAlive(s.pid) ? s.pid : undefined);
      alone = other ? 0 : alone + 1;
      if (alone >= 3) break;
    }
    await sleep(POLL_MS);
  }
  const stopped = exited === null && child.pid !== undefined;
  if (stopped) await killUnstarted(child.pid!);
  const waited = Math.round((Date.now() - spawnedAt) / 1000);
  const why = await startError(paths.daemonLog, logFrom);
  const size = (await stat(paths.daemonLog).catch(() => undefined))?.size;
  const seeLog = size ? ` (log: ${paths.daemonLog})` : '';
  if (why) throw new AppError(503, 'daemon_unreachable', `The kairos daemon could not start: ${why}`);
  throw new AppError(
    503,
    'daemon_unreachable',
    stopped
      ? `The kairos daemon did not answer within ${waited} s and was stopped${seeLog}.`
      : `The kairos daemon exited while starting (exit code ${exited})${seeLog}.`,
  );
}

/**
 * Ask the daemon of this home to stop (SIGTERM) and wait for it to exit. Also stops a daemon
 * that holds the home but is not listening yet (daemon.json not written).
 */
export async function stopDaemon(home: string, timeoutMs = STOP_TIMEOUT_MS): Promise<{ pid: number } | undefined> {
  // Only its pid is used, so only the home's owner matters, not the host it names.
  await assertOwnHome(home);
  const s = await readDaemonState(homePaths(home).daemonJson);
  const pid = s && pidAlive(s.pid) ? s.pid : await lockHolder(home);
  if (!pid) return undefined;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return { pid };
  }
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid)) {
    if (Date.now() > deadline)
      throw new AppError(500, 'daemon_stuck', `The daemon (pid ${pid}) did not stop within ${timeoutMs / 1000} s; see ${homePaths(home).daemonLog}.`);
    await sleep(25);
  }
  return { pid };
}
