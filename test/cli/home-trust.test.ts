import { chmodSync, chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, removeHome, runCli, tempHome, useDaemon } from '../helpers/daemon.js';

/**
 * The CLI sends the home's key only to a daemon on this machine or at the configured host, and
 * reads a home only when it is the user's own with mode 0700. Otherwise it refuses (exit 4),
 * naming the file and the fix, before connecting anywhere.
 */
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
// A spelling of 127.0.0.1 that is no loopback name: it stands for a host elsewhere, and leads to
// the recorder below, as that host would, should the CLI connect at all.
const ELSEWHERE = '2130706433';

let recorder: Server;
let port: number;
const seen: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  recorder = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","traces":[],"next_cursor":null}');
  });
  await new Promise<void>((ok) => recorder.listen(0, '127.0.0.1', () => ok()));
  port = (recorder.address() as AddressInfo).port;
});
afterAll(async () => {
  recorder.closeAllConnections();
  await new Promise((ok) => recorder.close(ok));
});

/** A home (0700, as mkdtemp makes it) whose daemon.json names `host` and a live process. */
function homeWithDaemonJson(host: string): string {
  const home = tempHome();
  writeFileSync(join(home, 'credentials.json'), JSON.stringify({ api_key: 'kairos_secret_owner_key', user_id: 'u', key_id: 'k' }), { mode: 0o600 });
  const daemon = { pid: process.pid, host, port, url: `http://${host}:${port}`, version: VERSION, started_at: new Date().toISOString(), tls: false };
  writeFileSync(join(home, 'daemon.json'), JSON.stringify(daemon), { mode: 0o600 });
  return home;
}

describe("daemon.json's host", () => {
  const homes: string[] = [];
  afterEach(() => {
    seen.length = 0;
    for (const h of homes.splice(0)) removeHome(h);
  });

  it('a host that is not this machine is refused before anything connects; the key goes nowhere', async () => {
    const home = homeWithDaemonJson(ELSEWHERE);
    homes.push(home);
    const r = await runCli(['trace', 'pull'], { env: { KAIROS_HOME: home } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(join(home, 'daemon.json'));
    expect(r.stderr).toMatch(/set "host" in .*config\.json or pass --url; otherwise remove/);
    const json = await runCli(['trace', 'pull', '--json'], { env: { KAIROS_HOME: home } });
    expect(JSON.parse(json.stderr).error.code).toBe('daemon_untrusted');
    // Completion asks the daemon on every Tab: it offers nothing, and sends nothing, either.
    const complete = await runCli(['__complete', 'trace'], { env: { KAIROS_HOME: home } });
    expect(complete.stdout).toBe('');
    expect(seen).toEqual([]);
  });

  it('a documentation address (192.0.2.1) is refused too, at once', async () => {
    const home = homeWithDaemonJson('192.0.2.1');
    homes.push(home);
    const r = await runCli(['daemon', 'status', '--json'], { env: { KAIROS_HOME: home } });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stderr).error.code).toBe('daemon_untrusted');
  });

  it('the configured host is trusted (config.json "host")', async () => {
    const home = homeWithDaemonJson(ELSEWHERE);
    homes.push(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ host: ELSEWHERE }));
    const r = await runCli(['trace', 'pull', '--json'], { env: { KAIROS_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.map((s) => s.authorization)).toContain('Bearer kairos_secret_owner_key');
  });

  it('a loopback daemon.json is used as before', async () => {
    const home = homeWithDaemonJson('127.0.0.1');
    homes.push(home);
    const r = await runCli(['trace', 'pull', '--json'], { env: { KAIROS_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.map((s) => s.authorization)).toContain('Bearer kairos_secret_owner_key');
  });
});

describe("the home's owner and mode", () => {
  const d = useDaemon();
  const env = () => ({ KAIROS_HOME: d.home });
  afterEach(() => {
    chmodSync(d.home, 0o700);
    chownSync(d.home, process.getuid!(), process.getgid!());
  });

  it('a home others may change (0755) is refused, naming the fix', async () => {
    expect((await runCli(['trace', 'pull'], { env: env() })).code).toBe(0);
    chmodSync(d.home, 0o755);
    const r = await runCli(['trace', 'pull'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`${d.home} can be changed or read by other users (mode 0755)`);
    expect(r.stderr).toContain(`chmod 700 ${d.home}`);
    const json = await runCli(['trace', 'pull', '--json'], { env: env() });
    expect(JSON.parse(json.stderr).error.code).toBe('home_untrusted');
    // Told where the daemon is and which key to use, the CLI reads nothing from the home.
    const told = await runCli(['trace', 'pull'], { env: { ...env(), KAIROS_URL: d.base, KAIROS_API_KEY: d.key } });
    expect(told.code, told.stderr).toBe(0);
  });

  it.skipIf(process.getuid?.() !== 0)('a home that belongs to another user (nobody) is refused', async () => {
    chownSync(d.home, 65534, 65534);
    expect(statSync(d.home).uid).toBe(65534);
    const r = await runCli(['trace', 'pull'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`${d.home} belongs to another user (uid 65534)`);
  });
});
