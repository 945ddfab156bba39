import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHomes } from '../helpers/cli-homes.js';
import { runCli, startDaemon } from '../helpers/daemon.js';
import { foldJournal } from '../helpers/stored-home.js';

const home = cliHomes();

const daemonJson = (h: string) => JSON.parse(readFileSync(join(h, 'daemon.json'), 'utf8'));

describe('kairos daemon', () => {
  it('start, status, a second daemon refused, stop', async () => {
    const h = home();
    const env = { KAIROS_HOME: h, KAIROS_PORT: '0' };
    const start = await runCli(['daemon', 'start'], { env });
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/kairos daemon started at http:\/\/127\.0\.0\.1:\d+/);
    const st = await runCli(['--json', 'daemon', 'status'], { env });
    expect(st.code).toBe(0);
    const status = JSON.parse(st.stdout);
    expect(status).toMatchObject({ status: 'running', pid: daemonJson(h).pid, url: daemonJson(h).url });

    const again = await runCli(['daemon', 'start'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already running');

    const second = await runCli(['daemon', 'run', '--port', '0'], { env });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/already running on .*Stop it with "kairos daemon stop"/);
    expect(second.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const stop = await runCli(['daemon', 'stop'], { env });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain('stopped');
    expect(existsSync(join(h, 'daemon.json'))).toBe(false);
    expect(existsSync(join(h, 'daemon.lock'))).toBe(false);
    const after = await runCli(['daemon', 'status'], { env });
    expect(after.code).toBe(3);
  });

  it('any command auto-starts the daemon and says so on stderr; --no-autostart does not', async () => {
    const h = home();
    const env = { KAIROS_HOME: h, KAIROS_PORT: '0' };
    const no = await runCli(['--no-autostart', 'status'], { env });
    expect(no.code).toBe(3);
    expect(no.stderr).toContain('not running');
    const r = await runCli(['--json', 'status'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/starting the daemon/);
    expect(JSON.parse(r.stdout).status).toBe('ok');
    const r2 = await runCli(['status'], { env });
    expect(r2.stderr).not.toMatch(/starting/);
  });

  it('restarts a daemon whose version differs from the CLI', async () => {
    const h = home();
    const env = { KAIROS_HOME: h, KAIROS_PORT: '0' };
    expect((await runCli(['daemon', 'start'], { env })).code).toBe(0);
    const before = daemonJson(h);
    writeFileSync(join(h, 'daemon.json'), JSON.stringify({ ...before, version: '0.0.0-old' }));
    const r = await runCli(['status'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/restarting the daemon \(it runs 0\.0\.0-old/);
    const after = daemonJson(h);
    expect(after.pid).not.toBe(before.pid);
    expect(after.version).toBe(before.version);
  });

  it('never auto-starts with KAIROS_URL; an unreachable daemon exits 3', async () => {
    const r = await runCli(['status'], { env: { KAIROS_HOME: home(), KAIROS_URL: 'http://127.0.0.1:9', KAIROS_API_KEY: 'x' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Cannot reach the kairos daemon at http:\/\/127\.0\.0\.1:9/);
  });

  it('refuses a non-loopback bind without TLS or --insecure (usage, exit 2)', async () => {
    const r = await runCli(['daemon', 'run', '--host', '0.0.0.0', '--port', '0'], { env: { KAIROS_HOME: home() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/without TLS.*--insecure/);
  });

  it('refuses a corrupt db.json, names it, leaves it untouched', async () => {
    const h = home();
    const d = await startDaemon({ home: h });
    await d.stop();
    // A snapshot after the first one keeps a backup of it (a running daemon takes them as it goes).
    await foldJournal(h);
    writeFileSync(join(h, 'db.json'), '{"schema_version": 1, "collections": [oops');
    const r = await runCli(['daemon', 'run', '--port', '0'], { env: { KAIROS_HOME: h } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(h, 'db.json'));
    expect(r.stderr).toMatch(/corrupt/);
    expect(r.stderr).toMatch(/Restore the last good backup with: +cp /);
    expect(readFileSync(join(h, 'db.json'), 'utf8')).toBe('{"schema_version": 1, "collections": [oops');
    expect(r.stdout).not.toContain('listening');
  });

  it('SIGTERM stops gracefully with exit 0, writes no snapshot, and keeps every write', async () => {
    const h = home();
    // No timed snapshot while the test runs: db.json changes only if the stop rewrites it.
    writeFileSync(join(h, 'config.json'), JSON.stringify({ snapshot: { every_ms: 3_600_000 } }));
    const d = await startDaemon({ home: h });
    const r = await d.api('POST', '/auth/keys', { body: { name: 'before-stop', scopes: ['memory:read'] } });
    expect(r.status).toBe(201);
    const before = readFileSync(join(h, 'db.json'), 'utf8');
    expect(await d.stop('SIGTERM')).toBe(0);
    // The stop waits for the journal only; the write is in db.json's journal, replayed at the next start.
    expect(readFileSync(join(h, 'db.json'), 'utf8')).toBe(before);
    expect(before).not.toContain(r.json.id);
    const again = await startDaemon({ home: h });
    try {
      const keys = (await again.api('GET', '/auth/keys')).json.keys as { id: string }[];
      expect(keys.some((k) => k.id === r.json.id)).toBe(true);
    } finally {
      await again.stop();
    }
  });

  it('kill -9 during a write burst loses no acknowledged write', async () => {
    const h = home();
    const d = await startDaemon({ home: h });
    const acked: string[] = [];
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const r = await d.api('POST', '/auth/keys', { body: { name: `burst-${w}-${i}`, scopes: ['memory:read'] } });
          if (r.status === 201 && !killed) acked.push(r.json.id);
        } catch {
          return; // connection cut by the kill
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    while (acked.length < 150) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    await d.stop('SIGKILL');
    await Promise.all(workers);
    const d2 = await startDaemon({ home: h });
    try {
      const keys = await d2.api('GET', '/auth/keys');
      const ids = new Set(keys.json.keys.map((k: { id: string }) => k.id));
      const lost = acked.filter((id) => !ids.has(id));
      expect(lost).toEqual([]);
    } finally {
      await d2.stop();
    }
  });
});
