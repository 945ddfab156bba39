import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ics, startFeedServer } from '../helpers/feed-server.js';
import { useApp } from '../helpers/in-process.js';
import { HAS_RADICALE, type Radicale, startRadicale } from '../helpers/radicale.js';

/**
 * The per-user caps of calendar sync, set low in config.json (`sync.max_subscriptions: 2`,
 * `sync.max_accounts: 1`): one past the cap is 422 `limit_exceeded` naming the limit, nothing is
 * created and nothing is fetched; another user has caps of their own. The app in-process, a feed
 * server and (for accounts) Radicale on loopback.
 */
const d = useApp({}, { config: { sync: { max_subscriptions: 2, max_accounts: 1 } } });
let feed: Awaited<ReturnType<typeof startFeedServer>>;
let rad: Radicale | undefined;
let otherToken: string;

beforeAll(async () => {
  feed = await startFeedServer();
  for (let n = 1; n <= 5; n++) feed.routes.set(`/f${n}.ics`, { body: ics([{ uid: `f${n}`, summary: `Feed ${n}`, start: '20310601T100000Z' }]) });
  const reg = await d.api('POST', '/user/register', { body: { email: 'cap@example.com', password: 'correct horse battery', display_name: 'Cap' } });
  expect(reg.status, reg.text).toBe(201);
  const login = await d.api('POST', '/user/login', { key: null, body: { email: 'cap@example.com', password: 'correct horse battery' } });
  otherToken = login.json.token;
}, 60_000);
afterAll(async () => {
  await feed?.close();
  await rad?.stop();
});

const subscribe = (n: number, key?: string) =>
  d.api('POST', '/calendar/subscriptions', { body: { url: `${feed.base}/f${n}.ics`, name: `feed ${n}` }, ...(key ? { key } : {}) });

describe('per-user caps', () => {
  it('a subscription past sync.max_subscriptions is 422 limit_exceeded naming the limit; nothing is stored or fetched', async () => {
    expect((await subscribe(1)).status).toBe(201);
    expect((await subscribe(2)).status).toBe(201);
    const fetched = feed.requests.length;
    const r = await subscribe(3);
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('limit_exceeded');
    expect(r.json.error.message).toContain('sync.max_subscriptions');
    expect(r.json.error.details).toEqual([{ path: 'sync.max_subscriptions', message: 'at most 2 subscriptions per user' }]);
    expect(feed.requests.length).toBe(fetched);
    expect((await d.api('GET', '/calendar/subscriptions')).json.subscriptions).toHaveLength(2);
    // The cap is per user: another user still subscribes.
    expect((await subscribe(4, otherToken)).status).toBe(201);
    // Room again after an unsubscribe.
    const first = (await d.api('GET', '/calendar/subscriptions')).json.subscriptions[0];
    expect((await d.api('DELETE', `/calendar/subscriptions/${first.id}`)).status).toBe(200);
    expect((await subscribe(5)).status).toBe(201);
  });

  it.skipIf(!HAS_RADICALE)(
    'a CalDAV account past sync.max_accounts is 422 limit_exceeded naming the limit; nothing is stored',
    async () => {
      rad = await startRadicale();
      const work = await rad!.mkcalendar('work');
      const home = await rad!.mkcalendar('home');
      const add = (name: string, url: string) =>
        d.api('POST', '/calendar/sync/accounts', { body: { name, url, username: rad!.user, password: rad!.password } });
      const ok = await add('work', work);
      expect(ok.status, ok.text).toBe(201);
      const r = await add('home', home);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe('limit_exceeded');
      expect(r.json.error.details).toEqual([{ path: 'sync.max_accounts', message: 'at most 1 CalDAV accounts per user' }]);
      expect((await d.api('GET', '/calendar/sync/accounts')).json.accounts.map((a: { name: string }) => a.name)).toEqual(['work']);
    },
    60_000,
  );
});
