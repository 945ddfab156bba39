import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';
import { HAS_RADICALE, type Radicale, startRadicale } from '../helpers/radicale.js';

/** kairos cal sync add / list / run / remove against Radicale: the round end to end (the installed bin), a refusal in-process. */
if (!HAS_RADICALE) console.warn('skipping kairos cal sync CLI tests: radicale is not installed (apt-get install -y radicale)');
const suite = HAS_RADICALE ? describe : describe.skip;
const d = useApp();
let rad: Radicale;
let url: string;
const cal = (args: string[], input?: string) => runCli(['cal', ...args], { env: appCliEnv(d), ...(input !== undefined ? { input } : {}) });
const calInProcess = (args: string[], input?: string) => runCliInProcess(['cal', ...args], { env: appCliEnv(d), ...(input !== undefined ? { input } : {}) });

beforeAll(async () => {
  if (!HAS_RADICALE) return;
  rad = await startRadicale();
  url = await rad.mkcalendar('cli');
}, 30_000);
afterAll(async () => {
  await rad?.stop();
});

suite('kairos cal sync', () => {
  it('a wrong password: exit 6, a clear line, no account', async () => {
    const r = await calInProcess(['sync', 'add', 'cli', '--collection', url, '--user', rad.user, '--password-stdin'], 'nope\n');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/refused the user name or password/);
    expect(r.stderr).not.toContain('nope');
    expect((await calInProcess(['sync', 'list'])).stdout).toMatch(/No sync accounts/);
  });

  it('add, run, list, remove', async () => {
    const add = await cal(['sync', 'add', 'cli', '--collection', url, '--user', rad.user, '--password-stdin'], `${rad.password}\n`);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/Added "cli"/);
    await d.api('POST', '/calendar/create', { body: { title: 'CLI event', scheduled_for: '2031-06-02T09:00:00Z', duration_minutes: 30 } });
    const run = await cal(['sync', 'run', 'cli']);
    expect(run.code, run.stderr).toBe(0);
    // A daemon's own first sync round (2 s after start; a new account is due at once) may push the
    // event before this run: then this run pushes nothing, and the server holds it either way.
    expect(run.stdout).toMatch(/cli: 0 pulled, [01] pushed/);
    const stored = readdirSync(rad.storage('cli')).filter((f) => f.endsWith('.ics'));
    expect(stored).toHaveLength(1);
    expect(readFileSync(join(rad.storage('cli'), stored[0]!), 'utf8')).toContain('SUMMARY:CLI event');
    const list = await cal(['sync', 'list']);
    expect(list.stdout).toMatch(/cli\t.*\t1\t/);
    expect(list.stdout).not.toContain(rad.password);
    const rm = await cal(['sync', 'remove', 'cli', '--yes']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toMatch(/and its password/);
  });
});
