import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

const cli = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) => runCliInProcess(args, { env: appCliEnv(d, extra), input });
/** The installed bin against the same app: one call of each command end to end. */
const spawned = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) => runCli(args, { env: appCliEnv(d, extra), input });

describe('kairos keys', () => {
  it('create → list → rotate → revoke, with --json for scripts', async () => {
    const c = await spawned(['--json', 'keys', 'create', 'bot', '--scopes', 'memory:read,tempo:read', '--agent', 'bot-1', '--ttl', '3600']);
    expect(c.code, c.stderr).toBe(0);
    const k = JSON.parse(c.stdout);
    expect(k).toMatchObject({ name: 'bot', agent_id: 'bot-1', scopes: ['memory:read', 'tempo:read'] });
    expect(c.stderr).toBe(''); // no hints on a pipe

    const l = await cli(['keys', 'list']);
    expect(l.code).toBe(0);
    expect(l.stdout).toMatch(new RegExp(`${k.id}\\s+bot\\s+bot-1`));
    expect(l.stdout).not.toContain(k.key);

    const r = await spawned(['--json', 'keys', 'rotate', k.id]);
    expect(r.code).toBe(0);
    const rotated = JSON.parse(r.stdout);
    expect(rotated.id).toBe(k.id);
    expect(rotated.key).not.toBe(k.key);

    const noYes = await cli(['keys', 'revoke', k.id]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const rev = await spawned(['keys', 'revoke', k.id, '--yes']);
    expect(rev.code).toBe(0);
    expect(rev.stdout).toContain(`Revoked ${k.id}`);
    const use = await cli(['user', 'profile'], { KAIROS_API_KEY: rotated.key });
    expect(use.code).toBe(4);
  });

  it('exit codes: usage 2, unauthorized 4, not found 5, validation 6', async () => {
    expect((await cli(['keys', 'create', 'x'])).code).toBe(2); // missing --scopes
    expect((await cli(['keys', 'create', 'x', '--scopes', 'bogus'])).code).toBe(2);
    expect((await cli(['no-such-command'])).code).toBe(2);
    expect((await cli(['user', 'profile'], { KAIROS_API_KEY: 'kairos_sk_wrong' })).code).toBe(4);
    const nf = await cli(['keys', 'rotate', 'key_missing']);
    expect(nf.code).toBe(5);
    expect(nf.stderr).toContain('No API key key_missing');
    const bad = await cli(['user', 'update', '--tz', 'Mars/Olympus']);
    expect(bad.code).toBe(6);
    expect(bad.stderr).toMatch(/timezone/);
  });

  it('--json errors go to stderr as JSON, stdout stays empty', async () => {
    const r = await cli(['--json', 'keys', 'rotate', 'key_missing']);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.code).toBe('not_found');
  });
});

describe('kairos user', () => {
  it('profile, update, passwd and login', async () => {
    const p = await spawned(['--json', 'user', 'profile']);
    expect(JSON.parse(p.stdout).user_id).toBe(d.userId);
    const u = await spawned(['user', 'update', '--name', 'Ada', '--tz', 'Europe/Berlin', '--set', 'week_starts=monday', '--set', 'focus_hours=4']);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toContain('Ada');
    expect(u.stdout).toContain('Europe/Berlin');
    const again = JSON.parse((await cli(['--json', 'user', 'profile'])).stdout);
    expect(again.preferences).toEqual({ week_starts: 'monday', focus_hours: 4 });

    const noTty = await cli(['user', 'passwd', '--email', 'ada@example.com']);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--password-stdin');
    const pw = await spawned(['user', 'passwd', '--email', 'ada@example.com', '--password-stdin'], {}, 'a long secret\n');
    expect(pw.code, pw.stderr).toBe(0);
    const login = await spawned(['--json', 'user', 'login', '--email', 'ada@example.com', '--password-stdin'], {}, 'a long secret\n');
    expect(login.code, login.stderr).toBe(0);
    const token = JSON.parse(login.stdout).token;
    const viaToken = await cli(['--json', 'user', 'profile'], { KAIROS_API_KEY: token });
    expect(JSON.parse(viaToken.stdout).email).toBe('ada@example.com');
    const wrong = await cli(['user', 'login', '--email', 'ada@example.com', '--password-stdin'], {}, 'nope nope\n');
    expect(wrong.code).toBe(4);

    // A user's login token (not admin, unlike the owner's) needs the current password, and ends with the change.
    const reg = await d.api('POST', '/user/register', { body: { email: 'bo@example.com', password: 'a long secret', display_name: 'Bo' } });
    expect(reg.status, reg.text).toBe(201);
    const bo = await cli(['--json', 'user', 'login', '--email', 'bo@example.com', '--password-stdin'], {}, 'a long secret\n');
    const boToken = JSON.parse(bo.stdout).token;
    const without = await cli(['user', 'passwd', '--password-stdin'], { KAIROS_API_KEY: boToken }, 'another secret\n');
    expect(without.code).toBe(4);
    expect(without.stderr).toContain('current_password');
    const changed = await cli(['user', 'passwd', '--current', '--password-stdin'], { KAIROS_API_KEY: boToken }, 'a long secret\nanother secret\n');
    expect(changed.code, changed.stderr).toBe(0);
    expect((await cli(['user', 'profile'], { KAIROS_API_KEY: boToken })).code).toBe(4);
    const relogin = await cli(['--json', 'user', 'login', '--email', 'bo@example.com', '--password-stdin'], {}, 'another secret\n');
    expect(relogin.code, relogin.stderr).toBe(0);
  });

  it('status prints a readable summary', async () => {
    const r = await cli(['status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kairos \S+ at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/queue +\d+ proposed/);
  });
});
