import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, removeHome, runCli, startDaemon, type TestDaemon } from '../helpers/daemon.js';

// Issue 17: a daemon that accepts the connection but never answers (here: SIGSTOP) used to keep
// the CLI waiting for ever. The client gives up after KAIROS_TIMEOUT_MS (default 30 s) with one
// clear line and exit code 3 (daemon unreachable, SPEC §6).

let d: TestDaemon;
beforeAll(async () => {
  d = await startDaemon();
  // Answered once first: the daemon is up, so what follows is a hang, not a slow start.
  expect((await d.api('GET', '/health')).status).toBe(200);
  process.kill(d.child.pid!, 'SIGSTOP');
});
afterAll(async () => {
  if (!d) return;
  process.kill(d.child.pid!, 'SIGCONT');
  await d.stop();
  removeHome(d.home);
});

describe('the CLI against a hung daemon', () => {
  it('gives up after KAIROS_TIMEOUT_MS with a clear line and exit code 3', async () => {
    const t = performance.now();
    const r = await runCli(['trace', 'pull', '--task', 'anything'], { env: cliEnv(d, { KAIROS_TIMEOUT_MS: '1500' }) });
    const ms = performance.now() - t;
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^kairos: The kairos daemon at http:\/\/127\.0\.0\.1:\d+ accepted the request but sent nothing for 1500 ms: it may be hung or stopped/,
    );
    expect(r.stderr).toContain('KAIROS_TIMEOUT_MS');
    // It waited at least the timeout (a generous upper bound: a loaded machine starts node slowly).
    expect(ms).toBeGreaterThanOrEqual(1500);
    expect(ms).toBeLessThan(15_000);
  });

  it('says so as JSON on stderr with --json, code daemon_timeout', async () => {
    const r = await runCli(['--json', 'trace', 'pull', '--task', 'anything'], { env: cliEnv(d, { KAIROS_TIMEOUT_MS: '1000' }) });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.code).toBe('daemon_timeout');
  });

  it('refuses a KAIROS_TIMEOUT_MS that is not a number of milliseconds (usage, exit 2)', async () => {
    const r = await runCli(['trace', 'pull', '--task', 'anything'], { env: cliEnv(d, { KAIROS_TIMEOUT_MS: '30s' }) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('KAIROS_TIMEOUT_MS must be a whole number of milliseconds');
  });
});
