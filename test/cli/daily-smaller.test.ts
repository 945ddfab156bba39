import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { startFeedServer } from '../helpers/feed-server.js';
import { useApp } from '../helpers/in-process.js';

// The smaller annoyances of a person's first afternoon, each against the app.
const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
let feed: Awaited<ReturnType<typeof startFeedServer>>;

beforeAll(async () => {
  feed = await startFeedServer();
});
afterAll(async () => {
  await feed?.close();
});

describe('daily use: the smaller list', () => {
  it('export --max-tokens with another format names the flag once', async () => {
    const r = await kairos(['export', '--format', 'full', '--max-tokens', '200']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kairos: --max-tokens applies to --format summary only/);
    expect(r.stderr).not.toMatch(/max_token_count/);
  });

  it('cal subscribe-url gives the same feed URL twice, one key; --new makes another', async () => {
    const first = JSON.parse((await kairos(['--json', 'cal', 'subscribe-url'])).stdout);
    const again = JSON.parse((await kairos(['--json', 'cal', 'subscribe-url'])).stdout);
    expect(again).toEqual(first);
    const feedKeys = async () =>
      (await d.api('GET', '/auth/keys')).json.keys.filter(
        (k: { scopes: string[]; revoked_at: string | null }) => k.scopes.join() === 'calendar:feed' && !k.revoked_at,
      );
    expect(await feedKeys()).toHaveLength(1);
    const ics = await fetch(first.url);
    expect(ics.status).toBe(200);
    const fresh = JSON.parse((await kairos(['--json', 'cal', 'subscribe-url', '--new'])).stdout);
    expect(fresh.url).not.toBe(first.url);
    expect(await feedKeys()).toHaveLength(2);
    const help = await kairos(['cal', 'subscribe-url', '--help']);
    expect(help.stdout).toContain('calendar:feed');
    expect(help.stdout).not.toContain('calendar:read');
  });

  it('a subscription to a feed that answers 404 is refused with a clear error; nothing is created', async () => {
    const r = await kairos(['cal', 'subscribe', `${feed.base}/missing.ics`]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^kairos: Not subscribed to http:\/\/.+\/missing\.ics: .*HTTP 404/);
    expect(r.stderr).not.toMatch(/last good copy/);
    expect((await d.api('GET', '/calendar/subscriptions')).json.subscriptions).toEqual([]);
  });

  it('completion for approve and reject offers only plans still awaiting a decision', async () => {
    const json = async (args: string[]) => JSON.parse((await kairos(['--json', ...args])).stdout);
    const done = (await json(['plan', 'gym tomorrow 7am for an hour'])).plan_id as string;
    // approve runs the plan too: it is executed, nothing more to decide.
    expect((await kairos(['approve', done])).code).toBe(0);
    const open = (await json(['plan', 'call mom on sunday at 6pm'])).plan_id as string;
    // The shell's call, a process of its own; finding the daemon from daemon.json is completion-shells' case.
    const r = await runCli(['__complete', 'proposed-plan'], { env: appCliEnv(d, { KAIROS_COMPLETE_TIMEOUT_MS: '10000' }) });
    expect(r.code).toBe(0);
    // Ids made seconds apart share a short prefix: tell them apart by what each line says.
    expect(r.stdout).toMatch(/call mom on sunday/);
    expect(r.stdout).not.toMatch(/gym/);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(open.startsWith(r.stdout.split('\t')[0]!)).toBe(true);
    const script = await kairos(['completion', 'bash']);
    expect(script.stdout).toMatch(/approve[^\n]*id:proposed-plan/);
  });

  it('plan and its preview name what they overlap by title and time', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ev = await d.api('POST', '/calendar/create', { body: { title: 'Standup', scheduled_for: `${tomorrow}T09:30:00Z`, duration_minutes: 15 } });
    expect(ev.status, ev.text).toBe(201);
    const prompt = 'Call with Ana tomorrow at 9:30 for 30 minutes';
    const preview = await kairos(['plan', '--preview', prompt]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/overlaps “Standup” \w{3} \d{4}-\d\d-\d\d 09:30–09:45 \(ev_/);
    const plan = await kairos(['plan', prompt]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/overlaps “Standup” \w{3} \d{4}-\d\d-\d\d 09:30–09:45 \(ev_/);
  });

  it('commander\'s own errors speak as every other error: "kairos: …"', async () => {
    for (const args of [
      ['cal', 'add'],
      ['trace', 'pull', '--bogus'],
    ]) {
      const r = await kairos(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^kairos: /);
      expect(r.stderr).not.toMatch(/^error: /m);
    }
  });

  it("today's free time leaves out the hours already past", async () => {
    // A zone where it is now early afternoon, so the waking day has a morning behind it.
    const offset = 13 - new Date().getUTCHours();
    const zone = offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
    expect((await d.api('PATCH', '/user/update', { body: { updates: { timezone: zone } } })).status).toBe(200);
    const before = Date.now();
    const r = await kairos(['--json', 'cal', 'free', 'today', '--for', '15m']);
    expect(r.code, r.stderr).toBe(0);
    const free = JSON.parse(r.stdout) as { slots: { start: string }[]; day: { start: string }[] };
    expect(Date.parse(free.day[0]!.start)).toBeLessThan(before);
    for (const s of free.slots) expect(Date.parse(s.start)).toBeGreaterThanOrEqual(before - 60_000);
  });
});
