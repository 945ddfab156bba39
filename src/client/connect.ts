import { spawn } from 'node:child_process';
import { mkdir, open, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DIR_MODE, homePaths, resolveHome } from '../config/paths.js';
import { readCredentials } from '../daemon/credentials.js';
import { pidAlive } from '../daemon/lock.js';
import { readDaemonState, type DaemonState } from '../daemon/state.js';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { ApiClient } from './http.js';

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  url?: string;
  apiKey?: string;
  autostart: boolean;
  /** One-line notices (auto-start) for stderr. */
  note: (line: string) => void;
}

const BIN = fileURLToPath(new URL('../../bin/kairos.js', import.meta.url));
const START_TIMEOUT_MS = 10_000;

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(url + '/health', { signal: AbortSignal.timeout(1000) });
    return r.ok;
  } catch {
    return false;
  }
}

/** The running daemon of this home, if daemon.json names a live process that answers /health. */
export async function runningDaemon(home: string): Promise<DaemonState | undefined> {
  const s = await readDaemonState(homePaths(home).daemonJson);
  if (!s || !pidAlive(s.pid)) return undefined;
  return (await healthy(localUrl(s))) ? s : undefined;
}

/** daemon.json's address, but loopback when it listens on every interface. */
export function localUrl(s: DaemonState): string {
  const host = s.host === '0.0.0.0' || s.host === '::' ? '127.0.0.1' : s.host.includes(':') ? `[${s.host}]` : s.host;
  return `${s.tls ? 'https' : 'http'}://${host}:${s.port}`;
}

/** Spawn `kairos daemon run` detached, output to daemon.log, and wait for /health. */
export async function startDetached(home: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<DaemonState> {
  const paths = homePaths(home);
  await mkdir(home, { recursive: true, mode: DIR_MODE });
  const log = await open(paths.daemonLog, 'a', 0o600);
  const child = spawn(process.execPath, [BIN, 'daemon', 'run', ...extraArgs], {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    env: { ...env, KAIROS_HOME: home },
  });
  child.unref();
  await log.close();
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) break;
    const s = await readDaemonState(paths.daemonJson);
    if (s && s.pid === child.pid && (await healthy(localUrl(s)))) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  const tail = (await readFile(paths.daemonLog, 'utf8').catch(() => '')).trim().split('\n').slice(-8).join('\n');
  throw new AppError(503, 'daemon_unreachable', `The kairos daemon did not start${exited !== null ? ` (exit code ${exited})` : ' within 10 s'}. Last lines of ${paths.daemonLog}:\n${tail}`);
}

/** Ask the daemon of this home to stop (SIGTERM) and wait for it to exit. */
export async function stopDaemon(home: string, timeoutMs = 10_000): Promise<DaemonState | undefined> {
  const s = await readDaemonState(homePaths(home).daemonJson);
  if (!s || !pidAlive(s.pid)) return undefined;
  process.kill(s.pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(s.pid)) {
    if (Date.now() > deadline) throw new AppError(500, 'daemon_stuck', `The daemon (pid ${s.pid}) did not stop within ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

/**
 * A client for the daemon: an explicit --url/KAIROS_URL is used as it is; otherwise the daemon of
 * KAIROS_HOME, started (or restarted on a version mismatch) when needed.
 */
export async function connect(o: ConnectOptions): Promise<ApiClient> {
  const home = resolveHome(o.env);
  const explicit = o.url ?? o.env.KAIROS_URL;
  let apiKey = o.apiKey ?? o.env.KAIROS_API_KEY;
  let baseUrl: string;
  if (explicit) baseUrl = explicit;
  else {
    let s = await runningDaemon(home);
    if (s && s.version !== VERSION && o.autostart) {
      o.note(`kairos: restarting the daemon (it runs ${s.version}, this CLI is ${VERSION})`);
      await stopDaemon(home);
      s = undefined;
    }
    if (!s) {
      if (!o.autostart) throw new AppError(503, 'daemon_unreachable', `The kairos daemon is not running for ${home}; start it with "kairos daemon start".`);
      o.note(`kairos: starting the daemon for ${home}`);
      s = await startDetached(home, o.env);
    }
    baseUrl = localUrl(s);
  }
  apiKey ??= (await readCredentials(homePaths(home).credentials))?.api_key;
  return new ApiClient({ baseUrl, apiKey });
}
