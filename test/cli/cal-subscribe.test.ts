import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { ics, startFeedServer } from '../helpers/feed-server.js';
import { useApp } from '../helpers/in-process.js';

/**
 * kairos cal subscribe / subscriptions / refresh / unsubscribe against a feed on loopback: the
 * whole round end to end (the installed bin, over HTTP), the usage errors in-process.
 */
const d = useApp();
let feed: Awaited<ReturnType<typeof startFeedServer>>;
const cal = (args: string[]) => runCli(['cal', ...args], { env: appCliEnv(d) });
const calInProcess = (args: string[]) => runCliInProcess(['cal', ...args], { env: appCliEnv(d) });

beforeAll(async () => {
  feed = await startFeedServer();
  feed.routes.set('/h.ics', { body: ics([{ uid: 'h1', summary: 'Holiday', start: '20310601T000000Z' }]), etag: '"1"' });
});
afterAll(async () => {
  await feed?.close();
});

it('subscribe, list, refresh, refuse an edit, unsubscribe', async () => {
  const sub = await cal(['subscribe', `${feed.base}/h.ics`, '--name', 'Holidays', '--every', '2h', '--json']);
  expect(sub.code, sub.stderr).toBe(0);
  const s = JSON.parse(sub.stdout);
  expect(s).toMatchObject({ name: 'Holidays', every_minutes: 120, event_count: 1, refresh: { imported: 1 } });

  const list = await cal(['subscriptions']);
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(s.id);
  expect(list.stdout).toContain('Holidays');

  const refresh = await cal(['refresh', s.id]);
  expect(refresh.code, refresh.stderr).toBe(0);
  expect(refresh.stdout).toMatch(/has not changed/);

  const events = await d.api('GET', '/calendar/events?expand=false');
  const uid = events.json.events.find((e: any) => e.subscription?.id === s.id).uid;
  const edit = await cal(['edit', uid, '--title', 'mine']);
  expect(edit.code).toBe(6);
  expect(edit.stderr).toMatch(/read-only/);

  feed.routes.set('/h.ics', { status: 503 });
  const failed = await cal(['refresh']);
  expect(failed.code).toBe(1);
  expect(failed.stdout).toMatch(/Refresh failed \(feed_http_error\).*HTTP 503/);

  const un = await cal(['unsubscribe', s.id, '--yes']);
  expect(un.code, un.stderr).toBe(0);
  expect(un.stdout).toMatch(/1 event\(s\) removed/);
});

it('--every takes 30m, 2h, 1d and refuses anything else (usage, exit 2)', async () => {
  const r = await calInProcess(['subscribe', `${feed.base}/h.ics`, '--every', 'often']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--every takes an interval such as 30m/);
  const short = await calInProcess(['subscribe', `${feed.base}/h.ics`, '--every', '1m']);
  expect(short.code).toBe(6);
  expect(short.stderr).toMatch(/every_minutes/);
});
