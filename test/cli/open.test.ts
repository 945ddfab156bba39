import { describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

describe('kairos open', () => {
  it('--print-url prints a one-time link that signs the page in once', async () => {
    const r = await runCli(['open', '--print-url'], { env: cliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(url).toMatch(new RegExp(`^${d.base}/app/#code=[\\w-]{43}$`));
    const code = new URL(url).hash.slice('#code='.length);
    const exchange = () =>
      fetch(`${d.base}/app/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: d.base }, body: JSON.stringify({ code }) });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/^kairos_session=/);
    expect((await exchange()).status).toBe(401);
  });

  it('without a browser to start, prints the link and says so', async () => {
    const r = await runCli(['open'], { env: cliEnv(d, { PATH: '/nonexistent' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('No browser could be started here');
    expect(r.stdout).toMatch(/\/app\/#code=[\w-]{43}/);
  });
});
