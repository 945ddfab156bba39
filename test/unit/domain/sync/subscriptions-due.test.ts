import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/config/config.js';
import { homePaths } from '../../../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../../../src/daemon/credentials.js';
import { startSyncTimer } from '../../../../src/daemon/sync-timer.js';
import type { Principal } from '../../../../src/domain/principal.js';
import { defaultFeedName, fetchableUrl } from '../../../../src/domain/sync/feed-url.js';
import { createServices, type Services } from '../../../../src/server/services.js';
import { Store } from '../../../../src/store/store.js';
import { LOOPBACK_ALLOW, tempHome } from '../../../helpers/daemon.js';
import { ics, startFeedServer } from '../../../helpers/feed-server.js';

/** When the daemon refreshes: each subscription once its interval has passed since the last attempt. */
let now = Date.parse('2031-01-01T00:00:00Z');
const clock = { now: () => new Date(now) };
const quiet = { info() {}, warn() {}, error() {} };
let home: string;
let store: Store;
let services: Services;
let feed: Awaited<ReturnType<typeof startFeedServer>>;
let owner: Principal;

beforeAll(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  services = createServices({
    store,
    clock,
    config: resolveConfig({}, { KAIROS_RATE_LIMIT: '0', KAIROS_OUTBOUND_ALLOW: LOOPBACK_ALLOW }),
    logger: quiet,
    version: 'test',
    startedAt: new Date(),
  });
  const creds = await ensureOwnerCredentials(services, homePaths(home).credentials);
  const userId = creds.user_id;
  owner = { userId, authUserId: userId, keyId: null, agentId: null, scopes: new Set(['admin']), via: 'key' };
  feed = await startFeedServer();
});
afterAll(async () => {
  await feed.close();
  await services.semantic.close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

it('refreshes a subscription only once its interval has passed, then follows the feed', async () => {
  feed.routes.set('/a.ics', { body: ics([{ uid: 'a1', summary: 'One', start: '20310601T100000Z' }]) });
  const sub = await services.subscriptions.subscribe(owner, { url: `${feed.base}/a.ics`, every_minutes: 30 });
  expect(sub.refresh.imported).toBe(1);
  const fetched = () => feed.requests.filter((r) => r.path === '/a.ics').length;
  expect(fetched()).toBe(1);

  now += 29 * 60_000;
  expect(await services.subscriptions.refreshDue()).toEqual([]);
  expect(fetched()).toBe(1);

  feed.routes.set('/a.ics', { body: ics([{ uid: 'a2', summary: 'Two', start: '20310602T100000Z' }]) });
  now += 60_000;
  const [done] = await services.subscriptions.refreshDue();
  expect(done).toMatchObject({ status: 'updated', imported: 1, removed: 1 });
  expect(fetched()).toBe(2);
  expect(services.subscriptions.list(owner)[0]!.next_refresh_at).toBe(new Date(now + 30 * 60_000).toISOString());
});

it("the daemon's timer runs the rounds and stops cleanly", async () => {
  now += 31 * 60_000;
  const before = feed.requests.length;
  const timer = startSyncTimer(services, 20, quiet);
  await new Promise((r) => setTimeout(r, 300));
  await timer.stop();
  // One refresh per due subscription, however many ticks passed: the next is due in 30 minutes.
  expect(feed.requests.length - before).toBe(1);
});

it('reads webcal:// as https and names a feed after its host and file', () => {
  expect(fetchableUrl('webcal://example.com/cal/team.ics?x=1')).toBe('https://example.com/cal/team.ics?x=1');
  expect(fetchableUrl('http://example.com/a.ics')).toBe('http://example.com/a.ics');
  expect(defaultFeedName('https://calendar.example.com/u/holidays%20DE.ics')).toBe('calendar.example.com/holidays DE.ics');
});
