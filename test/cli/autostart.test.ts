import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHomes } from '../helpers/cli-homes.js';
import { runCli } from '../helpers/daemon.js';
import { eventually, processesOfHome } from '../helpers/processes.js';

// Issue 15 items 4 and 6: auto-start on a stopped home under concurrent commands and taken ports.
// Every test runs on its own temp home and never relies on port 7340: the port is set through
// KAIROS_PORT (the configured "default" of that home).

const home = cliHomes();

const daemons = (h: string) => processesOfHome(h).filter((p) => p.cmdline.includes('daemon run'));
const daemonJson = (h: string) => JSON.parse(readFileSync(join(h, 'daemon.json'), 'utf8'));

/** A port held by another program for the test's duration. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('auto-start', () => {
  it('six commands at once on a stopped home all succeed, with one daemon', async () => {
    const h = home();
    const env = { KAIROS_HOME: h, KAIROS_PORT: '0' };
    const runs = await Promise.all(Array.from({ length: 6 }, () => runCli(['--json', 'status'], { env, timeoutMs: 30_000 })));
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status).toBe('ok');
      expect(r.stderr).not.toMatch(/already running/);
    }
    // One of them started it and said so; the others joined that start quietly.
    expect(runs.filter((r) => r.stderr.includes('starting the daemon')).length).toBe(1);
    // The losers of the race exit at once; one daemon is left, the one daemon.json names.
    expect(await eventually(() => daemons(h).length === 1, 5000)).toBe(true);
    expect(daemons(h)[0]!.pid).toBe(daemonJson(h).pid);
  }, 60_000);

  it('the configured port taken by another program: it listens on a free one, records it, says so once', async () => {
    const h = home();
    const { port, server } = await occupiedPort();
    try {
      const env = { KAIROS_HOME: h, KAIROS_PORT: String(port) };
      const r = await runCli(['--json', 'status'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`port ${port} is in use by another program; the daemon listens on`);
      expect(r.stderr).toContain(join(h, 'config.json'));
      const s = daemonJson(h);
      expect(s.port).not.toBe(port);
      expect(s.port_fallback_from).toBe(port);
      const again = await runCli(['status'], { env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toBe('');
    } finally {
      server.close();
    }
  });

  it('an explicit --port that is taken fails with one line naming config.json and leaves nothing running', async () => {
    const h = home();
    const { port, server } = await occupiedPort();
    try {
      // A stale log line of an earlier daemon must not be shown again.
      appendFileSync(join(h, 'daemon.log'), '{"level":50,"msg":"an old failure"}\nkairos: an old failure\n');
      const env = { KAIROS_HOME: h };
      const r = await runCli(['daemon', 'start', '--port', String(port)], { env });
      expect(r.code).not.toBe(0);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^kairos: .*Port ${port} is in use by another program.*--port.*${join(h, 'config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      expect(r.stderr).not.toMatch(/old failure|"level"/);
      expect(await eventually(() => processesOfHome(h).length === 0, 5000)).toBe(true);
      const st = await runCli(['daemon', 'status'], { env });
      expect(st.code).toBe(3);
      expect(st.stdout).toMatch(/not running/);
    } finally {
      server.close();
    }
  });
});

describe('a process that holds the home without answering', () => {
  it('daemon status names it instead of "not running", and daemon stop stops it', async () => {
    const h = home();
    // Stands in for a daemon stuck before it listens: alive, holding the lock, no daemon.json.
    const stuck = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(h, 'daemon.lock'), String(stuck.pid));
      const st = await runCli(['daemon', 'status'], { env: { KAIROS_HOME: h } });
      expect(st.code).toBe(3);
      expect(st.stdout).toContain(`kairos daemon (pid ${stuck.pid}) holds ${h} but does not answer`);
      const exited = new Promise((r) => stuck.once('exit', r));
      const stop = await runCli(['daemon', 'stop'], { env: { KAIROS_HOME: h } });
      expect(stop.code, stop.stderr).toBe(0);
      await exited;
    } finally {
      stuck.kill('SIGKILL');
    }
  });
});
