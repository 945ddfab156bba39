import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'kairos.js');
export { SHARED } from './shared.js';

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'kairos-test-'));
}

/** The loopback names and addresses the tests' own servers use, for KAIROS_OUTBOUND_ALLOW. */
export const LOOPBACK_ALLOW = '127.0.0.1,localhost,::1';

/** Environment for a spawned kairos: no inherited KAIROS_* or DEBUG, no colour; loopback let through the outbound policy. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('KAIROS_') || k === 'DEBUG') delete env[k];
  delete env.NODE_ENV;
  // Feeds, Radicale and the OAuth server of the tests listen on loopback, which the outbound
  // address policy refuses by default; the policy's own tests pass KAIROS_OUTBOUND_ALLOW: ''.
  return { ...env, NO_COLOR: '1', KAIROS_RATE_LIMIT: '0', KAIROS_OUTBOUND_ALLOW: LOOPBACK_ALLOW, ...extra };
}

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export interface TestDaemon {
  base: string;
  port: number;
  home: string;
  key: string;
  userId: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Call the API; `key: null` sends no Authorization header; `timeoutMs` fails the call instead of waiting on a stuck daemon. */
  api<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string>; timeoutMs?: number },
  ): Promise<ApiResult<T>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface DaemonOptions {
  home?: string;
  env?: Record<string, string | undefined>;
  args?: string[];
}

/** `api()` of a test daemon or app at `base`, sending `defaultKey` unless told otherwise. */
export function apiCaller(base: string, defaultKey: string): TestDaemon['api'] {
  return async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? defaultKey : o.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, body, ...(o.timeoutMs ? { signal: AbortSignal.timeout(o.timeoutMs) } : {}) });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** Start the real daemon (`kairos daemon run --port 0`) on a temp home (or the given one). */
export async function startDaemon(opts: DaemonOptions = {}): Promise<TestDaemon> {
  const home = opts.home ?? tempHome();
  const child = spawn(process.execPath, [BIN, 'daemon', 'run', '--port', '0', ...(opts.args ?? [])], {
    env: cleanEnv({ KAIROS_HOME: home, ...opts.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const port = await new Promise<number>((ok, fail) => {
    // Generous: a loaded 2-core machine has taken more than 15 s to start one.
    const timer = setTimeout(() => fail(new Error(`daemon did not start: ${err}`)), 40_000);
    child.stdout!.on('data', () => {
      const m = /^kairos listening on https?:\/\/[^\n]*:(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`daemon exited with ${code} before listening: ${err}`));
    });
  });
  const creds = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8'));
  const base = `http://127.0.0.1:${port}`;
  const d: TestDaemon = {
    base,
    port,
    home,
    key: creds.api_key,
    userId: creds.user_id,
    child,
    stdout: () => out,
    stderr: () => err,
    api: apiCaller(base, creds.api_key),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      child.kill(signal);
      return exited;
    },
  };
  return d;
}

export interface SharedDaemon extends TestDaemon {
  /** Stop it (SIGTERM, or the given signal) and start it again on the same home and options. */
  restart(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The daemon of a test file (or describe block): started before its tests, stopped and its home
 * removed after them. Call it where the tests' own beforeAll hooks come later, so they see it
 * started. The object stays the same across restart(), so helpers that closed over it keep
 * working. `opts` may be a function, run once the hooks run (to prepare a home, say).
 */
export function useDaemon(opts: DaemonOptions | (() => DaemonOptions) = {}): SharedDaemon {
  let current: TestDaemon | undefined;
  let options: DaemonOptions = {};
  const shared = {
    async restart(signal?: NodeJS.Signals) {
      await current!.stop(signal);
      current = await startDaemon({ ...options, home: current!.home });
      Object.assign(shared, current);
    },
  } as SharedDaemon;
  beforeAll(async () => {
    options = typeof opts === 'function' ? opts() : opts;
    current = await startDaemon(options);
    Object.assign(shared, current);
  });
  afterAll(async () => {
    if (!current) return;
    await current.stop();
    removeHome(current.home);
  });
  return shared;
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** Run the CLI binary; resolves with its output and exit code. */
export function runCli(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`kairos ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Env for CLI runs against a test daemon (explicit URL and key: no auto-start). */
export function cliEnv(d: TestDaemon, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { KAIROS_HOME: d.home, KAIROS_URL: d.base, KAIROS_API_KEY: d.key, ...extra };
}
