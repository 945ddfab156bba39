import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browse } from '../helpers/browser.js';
import { BIN, cleanEnv, cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { startAuthServer, type TestAuthServer } from '../helpers/oauth-server.js';

/**
 * `kairos cal oauth` end to end: the spawned CLI against a real authorization server
 * (oidc-provider) on loopback. The person reads the URL or code the CLI prints on stderr and
 * signs in with an HTTP client that submits the server's own pages. The authorization runs where
 * the person is and the tokens go to the home folder, as the grant of the user the daemon says the
 * CLI's credential is; `list` and `remove` ask the daemon.
 */

const d = useDaemon();
let as: TestAuthServer;
let home: string;
beforeAll(async () => {
  as = await startAuthServer();
  home = d.home;
});
afterAll(async () => {
  await as.close();
});
const env = (extra: Record<string, string | undefined> = {}) => ({ env: cliEnv(d, extra) });

/** Spawns kairos with no display (no browser to open) and lets the test wait for a line on stderr. */
function kairos(args: string[], input = '') {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cleanEnv({ ...cliEnv(d), DISPLAY: undefined, WAYLAND_DISPLAY: undefined }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    for (const w of waiters.splice(0)) w();
  });
  child.stdin.end(input);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => child.once('exit', (code) => ok({ code, stdout, stderr })));
  return {
    done,
    /** The first match of `re` in stderr, once it is there. */
    async stderrMatch(re: RegExp): Promise<RegExpExecArray> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const m = re.exec(stderr);
        if (m) return m;
        if (Date.now() > deadline) throw new Error(`no ${re} on stderr: ${stderr}`);
        await Promise.race([new Promise<void>((ok) => waiters.push(ok)), new Promise((ok) => setTimeout(ok, 200))]);
      }
    },
  };
}

const file = (name: string) => JSON.parse(readFileSync(join(home, 'oauth', `${name}.json`), 'utf8'));

describe('kairos cal oauth', () => {
  it('add: prints the authorization URL (no display here), the person signs in, the grant is stored 0600', async () => {
    const k = kairos(['cal', 'oauth', 'add', 'test', '--issuer', as.issuer, '--client-id', as.publicClient, '--scope', 'openid offline_access']);
    const [, url] = await k.stderrMatch(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m);
    await k.stderrMatch(/run the command again with --device/); // the hint for a terminal without a browser
    const page = await browse(url!, { login: 'alice', password: 'any' });
    expect(page.body).toContain('kairos is authorized');
    const r = await k.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Authorized "test"');
    expect(r.stdout).toContain('kairos cal sync add <calendar> --collection <collection-url> --oauth test');
    expect(statSync(join(home, 'oauth', 'test.json')).mode & 0o777).toBe(0o600);
    const grant = file('test').grant;
    for (const secret of [grant.access_token, grant.refresh_token]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('add --device with a client secret on stdin: prints the code and URL; the secret and tokens never reach the output', async () => {
    const k = kairos(
      [
        'cal',
        'oauth',
        'add',
        'dev',
        '--issuer',
        as.issuer,
        '--client-id',
        as.confidentialClient.id,
        '--client-secret-stdin',
        '--scope',
        'openid',
        '--scope',
        'offline_access',
        '--device',
      ],
      `${as.confidentialClient.secret}\n`,
    );
    const [, code] = await k.stderrMatch(/enter the code:\n {2}(\S+)/);
    const [, complete] = await k.stderrMatch(/or open directly:\n {2}(\S+)/);
    expect(complete).toContain(encodeURIComponent(code!).slice(0, 2));
    await browse(complete!, { login: 'bob', password: 'any' });
    const r = await k.done;
    expect(r.code, r.stderr).toBe(0);
    const f = file('dev');
    expect(f.provider.client_secret).toBe(as.confidentialClient.secret);
    for (const secret of [as.confidentialClient.secret, f.grant.access_token, f.grant.refresh_token]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('list shows both providers and no secret, as a table and as JSON', async () => {
    const r = await runCli(['cal', 'oauth', 'list', '--json'], env());
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout).providers;
    expect(list.map((a: { name: string }) => a.name)).toEqual(['dev', 'test']);
    expect(list[0]).toMatchObject({ issuer: as.issuer, client_id: as.confidentialClient.id, via: 'device', has_client_secret: true, has_refresh_token: true });
    const plain = await runCli(['cal', 'oauth', 'list'], env());
    expect(plain.stdout.split('\n')[1]).toMatch(/^test\thttp:\/\/127\.0\.0\.1:\d+\tkairos-public\tloopback\tvalid for \d+ min\tyes\t127\.0\.0\.1$/);
    for (const name of ['test', 'dev']) {
      const f = file(name);
      for (const secret of [f.grant.access_token, f.grant.refresh_token, as.confidentialClient.secret]) expect(r.stdout + plain.stdout).not.toContain(secret);
    }
  });

  it('check --refresh rotates the refresh token; after the provider revokes the grant, check fails with the command to authorize again', async () => {
    const before = file('test').grant;
    const ok = await runCli(['cal', 'oauth', 'check', 'test', '--refresh'], env());
    expect(ok.code, ok.stderr).toBe(0);
    const after = file('test').grant;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(ok.stdout).not.toContain(after.access_token);

    const rev = await fetch(`${as.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: after.refresh_token, client_id: as.publicClient }),
    });
    expect(rev.status).toBe(200);
    const r = await runCli(['cal', 'oauth', 'check', 'test', '--refresh'], env());
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('was revoked or has expired');
    expect(r.stderr).toContain('kairos cal oauth login test');
    expect(r.stderr).not.toContain(after.refresh_token);
    const j = await runCli(['--json', 'cal', 'oauth', 'check', 'test', '--refresh'], env());
    expect(JSON.parse(j.stderr).error.code).toBe('oauth_grant_revoked');
  });

  it('login authorizes again with the stored settings', async () => {
    const k = kairos(['cal', 'oauth', 'login', 'test', '--no-browser']);
    const [, url] = await k.stderrMatch(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m);
    await browse(url!, { login: 'alice', password: 'any' });
    expect((await k.done).code).toBe(0);
    expect((await runCli(['cal', 'oauth', 'check', 'test', '--refresh'], env())).code).toBe(0);
  });

  it('remove wants --yes off a terminal, then deletes the tokens and secret; an unknown name is exit 5', async () => {
    const no = await runCli(['cal', 'oauth', 'remove', 'dev'], env());
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    const r = await runCli(['cal', 'oauth', 'remove', 'dev', '--yes'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('the provider revoked the grant');
    expect(readdirSync(join(home, 'oauth'))).toEqual(['test.json']);
    const gone = await runCli(['cal', 'oauth', 'check', 'dev'], env());
    expect(gone.code).toBe(5);
    expect(gone.stderr).toContain('kairos cal oauth add dev');
  });

  it("an agent's key cannot add, list or remove providers (exit 4); a second user's login sees none of the owner's and removes none", async () => {
    const key = await d.api('POST', '/auth/keys', { body: { name: 'bot', agent_id: 'bot', scopes: ['calendar:read', 'calendar:write'] } });
    const agent = env({ KAIROS_API_KEY: key.json.key });
    const add = await runCli(['cal', 'oauth', 'add', 'mine', '--issuer', as.issuer, '--client-id', as.publicClient, '--device'], agent);
    expect(add.code).toBe(4);
    expect(add.stderr).toContain("an agent's key cannot");
    expect((await runCli(['cal', 'oauth', 'list'], agent)).code).toBe(4);
    expect((await runCli(['cal', 'oauth', 'remove', 'test', '--yes'], agent)).code).toBe(4);

    await d.api('POST', '/user/register', { body: { email: 'eve@example.com', password: 'correct horse battery', display_name: 'Eve' } });
    const login = await d.api('POST', '/user/login', { key: null, body: { email: 'eve@example.com', password: 'correct horse battery' } });
    const other = env({ KAIROS_API_KEY: login.json.token });
    const list = await runCli(['--json', 'cal', 'oauth', 'list'], other);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ providers: [] });
    const rm = await runCli(['cal', 'oauth', 'remove', 'test', '--yes'], other);
    expect(rm.code).toBe(5);
    const check = await runCli(['cal', 'oauth', 'check', 'test'], other);
    expect(check.code).toBe(5);
    expect(readdirSync(join(home, 'oauth')).filter((f) => f.endsWith('.json'))).toEqual(['test.json']);
  });

  it('refuses bad input with a usage error and writes nothing', async () => {
    const noIssuer = await runCli(['cal', 'oauth', 'add', 'x', '--client-id', 'c'], env());
    expect(noIssuer.code).toBe(2);
    expect(noIssuer.stderr).toContain('--issuer');
    const badName = await runCli(['cal', 'oauth', 'add', '../evil', '--issuer', as.issuer, '--client-id', 'c'], env());
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('not valid');
    const unreachable = await runCli(['cal', 'oauth', 'add', 'gone', '--issuer', 'http://127.0.0.1:9/', '--client-id', 'c'], env());
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach the OAuth provider "gone"');
    expect(readdirSync(join(home, 'oauth'))).toEqual(['test.json']);
  });
});
