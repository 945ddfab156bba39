import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { startFeedServer } from '../helpers/feed-server.js';

// The smaller annoyances of a person's first afternoon, each against the real daemon.
const d = useDaemon();
const kairos = (args: string[]) => runCli(args, { env: cliEnv(d) });
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
    const r = await runCli(['__complete', 'proposed-plan'], { env: { KAIROS_HOME: d.home, KAIROS_COMPLETE_TIMEOUT_MS: '10000' } });
    expect(r.code).toBe(0);
    // Ids made seconds apart share a short prefix: tell them apart by what each line says.
    expect(r.stdout).toMatch(/call mom on sunday/);
    expect(r.stdout).not.toMatch(/gym/);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(open.startsWith(r.stdout.split('\t')[0]!)).toBe(true);
    const script = await kairos(['completion', 'bash']);
    expect(script.stdout).toMatch(/approve[^\n]*id:proposed-plan/);
  });
});
