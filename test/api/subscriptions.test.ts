import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ics, startFeedServer } from '../helpers/feed-server.js';
import { useApp } from '../helpers/in-process.js';

/**
 * Subscriptions to remote .ics feeds, against the real daemon and a real HTTP server on loopback:
 * first fetch (200), a conditional refresh (304), a changed feed (added, changed and removed
 * events), broken feeds (HTTP error, not iCalendar, too large, a redirect off http): a clear error
 * and the last good copy kept; read-only events; unsubscribing.
 */
const d = useApp();
let feed: Awaited<ReturnType<typeof startFeedServer>>;

beforeAll(async () => {
  feed = await startFeedServer();
});
afterAll(async () => {
  await feed?.close();
});

const V1 = ics([
  { uid: 'team-1', summary: 'Planning', start: '20310601T100000Z' },
  { uid: 'team-2', summary: 'Retro', start: '20310602T100000Z' },
  { uid: 'team-3', summary: 'Demo', start: '20310603T100000Z', extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
]);
const V2 = ics([
  { uid: 'team-1', summary: 'Planning (moved room)', start: '20310601T100000Z' },
  { uid: 'team-3', summary: 'Demo', start: '20310603T100000Z', extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
  { uid: 'team-4', summary: 'Offsite', start: '20310605T080000Z' },
]);

async function feedEvents(subId: string) {
  const r = await d.api('GET', '/calendar/events?expand=false');
  expect(r.status).toBe(200);
  return (r.json.events as any[]).filter((e) => e.subscription?.id === subId);
}

describe('a subscription', () => {
  let sub: any;

  it('imports the feed with source subscription and its name', async () => {
    feed.routes.set('/team.ics', { body: V1, etag: '"v1"' });
    const r = await d.api('POST', '/calendar/subscriptions', { body: { url: `${feed.base}/team.ics`, name: 'Team', every_minutes: 30 } });
    expect(r.status).toBe(201);
    sub = r.json;
    expect(sub).toMatchObject({ name: 'Team', every_minutes: 30, event_count: 3, last_error: null });
    expect(sub.refresh).toMatchObject({ status: 'updated', imported: 3, updated: 0, removed: 0 });
    const events = await feedEvents(sub.id);
    expect(events.map((e) => e.title).sort()).toEqual(['Demo', 'Planning', 'Retro']);
    for (const e of events) expect(e).toMatchObject({ source: 'subscription', subscription: { id: sub.id, name: 'Team' } });
    expect(events.find((e) => e.title === 'Demo').rrule).toContain('FREQ=WEEKLY');
  });

  it('refreshes with If-None-Match and changes nothing on 304', async () => {
    const before = await feedEvents(sub.id);
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.status).toBe(200);
    expect(r.json.refresh.status).toBe('not_modified');
    expect(feed.requests.at(-1)!.headers['if-none-match']).toBe('"v1"');
    expect(await feedEvents(sub.id)).toEqual(before);
  });

  it('a feed without validators answering the same content writes nothing', async () => {
    feed.routes.set('/team.ics', { body: V1 });
    const before = await feedEvents(sub.id);
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.json.refresh).toMatchObject({ status: 'updated', imported: 0, updated: 0, removed: 0, unchanged: 3 });
    expect(await feedEvents(sub.id)).toEqual(before);
  });

  it('follows a changed feed: new events added, changed ones updated, vanished ones removed', async () => {
    feed.routes.set('/team.ics', { body: V2, lastModified: 'Wed, 01 Jan 2031 00:00:00 GMT' });
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.json.refresh).toMatchObject({ status: 'updated', imported: 1, updated: 1, removed: 1, unchanged: 1 });
    const titles = (await feedEvents(sub.id)).map((e) => e.title).sort();
    expect(titles).toEqual(['Demo', 'Offsite', 'Planning (moved room)']);
    // Last-Modified is sent back as If-Modified-Since.
    const again = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(again.json.refresh.status).toBe('not_modified');
    expect(feed.requests.at(-1)!.headers['if-modified-since']).toBe('Wed, 01 Jan 2031 00:00:00 GMT');
  });

  it.each([
    ['an HTTP error', { status: 500, body: 'oops' }, 'feed_http_error', /HTTP 500/],
    ['a page that is not iCalendar', { body: '<html><body>Sign in</body></html>', headers: { 'content-type': 'text/html' } }, 'feed_not_calendar', /iCalendar/],
    [
      'a feed whose every event is broken',
      { body: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:no start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' },
      'feed_not_calendar',
      /could be read/,
    ],
    ['a redirect to a file: URL', { status: 302, headers: { location: 'file:///etc/passwd' } }, 'feed_redirects', /only http and https/],
    ['a redirect loop', { status: 302, headers: { location: '/team.ics' } }, 'feed_redirects', /more than 5/],
  ])('%s: a clear error, the last good copy kept', async (_what, route, code, message) => {
    const before = await feedEvents(sub.id);
    feed.routes.set('/team.ics', route);
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.status).toBe(200);
    expect(r.json.refresh.status).toBe('failed');
    expect(r.json.refresh.error.code).toBe(code);
    expect(r.json.refresh.error.message).toMatch(message);
    expect(r.json.last_error).toMatchObject({ code });
    // The feed's own words never come back.
    expect(JSON.stringify(r.json)).not.toMatch(/oops|Sign in|passwd/);
    expect(await feedEvents(sub.id)).toEqual(before);
  });

  it('a feed over the import limit is cut off, the last good copy kept', async () => {
    const before = await feedEvents(sub.id);
    const big = V2.replace('END:VCALENDAR', `X-PAD:${'x'.repeat(11 * 1024 * 1024)}\r\nEND:VCALENDAR`);
    feed.routes.set('/team.ics', { body: big });
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.json.refresh.error.code).toBe('feed_too_large');
    expect(await feedEvents(sub.id)).toEqual(before);
  });

  it('a good feed again clears the error', async () => {
    feed.routes.set('/team.ics', { body: V2 });
    const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
    expect(r.json.refresh.status).toBe('updated');
    const list = await d.api('GET', '/calendar/subscriptions');
    expect(list.json.subscriptions.find((s: any) => s.id === sub.id)).toMatchObject({ last_error: null, event_count: 3 });
  });

  it('its events are read-only: edit and remove are refused with the reason', async () => {
    const [e] = await feedEvents(sub.id);
    const edit = await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { title: 'mine now' } } });
    expect(edit.status).toBe(409);
    expect(edit.json.error.code).toBe('read_only_event');
    expect(edit.json.error.message).toMatch(/subscription "Team"/);
    const rm = await d.api('DELETE', `/calendar/remove?uid=${encodeURIComponent(e.uid)}`);
    expect(rm.status).toBe(409);
    expect(rm.json.error.code).toBe('read_only_event');
    expect((await feedEvents(sub.id)).find((x) => x.uid === e.uid).title).toBe(e.title);
  });

  it('an import of a file with the same UIDs does not touch the feed events', async () => {
    const r = await d.api('POST', '/calendar/import', { raw: V2, headers: { 'content-type': 'text/calendar' } });
    expect(r.status).toBe(200);
    expect(r.json.imported).toBe(3);
    expect((await feedEvents(sub.id)).length).toBe(3);
  });

  it('unsubscribing removes the subscription and its events', async () => {
    const r = await d.api('DELETE', `/calendar/subscriptions/${sub.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ deleted: sub.id, events_removed: 3 });
    expect(await feedEvents(sub.id)).toEqual([]);
    expect((await d.api('GET', '/calendar/subscriptions')).json.subscriptions.some((s: any) => s.id === sub.id)).toBe(false);
  });
});

describe('subscribing', () => {
  it.each([
    ['ftp://example.com/a.ics', /only http, https and webcal/],
    ['file:///etc/passwd', /only http, https and webcal/],
    ['https://user:pw@example.com/a.ics', /user name or password/],
    ['not a url', /not a URL/],
  ])('refuses %s', async (url, message) => {
    const r = await d.api('POST', '/calendar/subscriptions', { body: { url } });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.json.error.details)).toMatch(message);
  });

  it('keeps a subscription whose first fetch failed, with the error', async () => {
    feed.routes.delete('/missing.ics');
    const r = await d.api('POST', '/calendar/subscriptions', { body: { url: `${feed.base}/missing.ics` } });
    expect(r.status).toBe(201);
    expect(r.json.refresh).toMatchObject({ status: 'failed', error: { code: 'feed_http_error' } });
    expect(r.json.name).toBe(`${new URL(feed.base).host}/missing.ics`);
    expect(r.json.last_error.message).toMatch(/HTTP 404/);
  });

  it("lists only the acting user's subscriptions", async () => {
    feed.routes.set('/own.ics', { body: V1 });
    const mine = await d.api('POST', '/calendar/subscriptions', { body: { url: `${feed.base}/own.ics` } });
    expect(mine.status).toBe(201);
    const reg = await d.api('POST', '/user/register', { body: { email: 'other-sub@example.com', password: 'correct horse battery', display_name: 'Other' } });
    expect(reg.status).toBe(201);
    const as = { 'x-user-id': reg.json.user_id };
    const list = await d.api('GET', '/calendar/subscriptions', { headers: as });
    expect(list.json.subscriptions).toEqual([]);
  });
});
