import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_REASON, type HostileServer, startHostileServer } from '../helpers/hostile-server.js';
import { useApp } from '../helpers/in-process.js';

/**
 * Feeds and CalDAV accounts pointed at the hostile-server kit, against the real daemon (loopback
 * 127.0.0.1 let through by the tests' KAIROS_OUTBOUND_ALLOW, 127.0.0.2 not): every answer ends in a
 * clear error, no socket stays open, nothing of the server's words comes back, and the daemon keeps
 * answering.
 */
const d = useApp();
let s: HostileServer;
let inside: HostileServer;
beforeAll(async () => {
  s = await startHostileServer();
  // A loopback address outside the allow list: the stand-in for a service on the private network.
  inside = await startHostileServer({ host: '127.0.0.2' });
});
afterAll(async () => {
  await s?.close();
  await inside?.close();
});

async function subscribe(path: string) {
  const r = await d.api('POST', '/calendar/subscriptions', { body: { url: `${s.base}${path}` } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

describe('a hostile feed', () => {
  it.each([404, 500, 300])('answering %i with a body that never ends holds no socket after a refresh', async (status) => {
    const sub = await subscribe(`/endless-status/${status}/feed.ics`);
    expect(sub.refresh.error.code).toBe('feed_http_error');
    for (let i = 0; i < 3; i++) {
      const r = await d.api('POST', `/calendar/subscriptions/${sub.id}/refresh`);
      expect(r.json.refresh.error.code).toBe('feed_http_error');
    }
    await vi.waitFor(() => expect(s.open()).toBe(0), { timeout: 10_000 });
  });

  it('keeps no reason phrase of the server', async () => {
    const sub = await subscribe('/status/403/feed.ics');
    expect(sub.last_error).toMatchObject({ code: 'feed_http_error', message: 'The feed answered HTTP 403; the last good copy is kept.' });
    const text = JSON.stringify(sub);
    for (const word of ['pwned', '\\u001b', 'Forbidden', HOSTILE_REASON]) expect(text).not.toContain(word);
  });

  it('is cut off when its gzip body inflates past the cap', async () => {
    const sub = await subscribe('/bomb/feed.ics');
    expect(sub.refresh.error.code).toBe('feed_too_large');
    expect((await d.api('GET', '/health')).status).toBe(200);
  });

  it('may not redirect to an address outside the policy: no connection is made', async () => {
    const sub = await subscribe(`/to/302/feed.ics?url=${encodeURIComponent(`${inside.base}/multistatus/100/`)}`);
    expect(sub.refresh.error.code).toBe('feed_unreachable');
    expect(inside.accepted()).toBe(0);
  });
});

describe('a hostile CalDAV server', () => {
  const add = (path: string) =>
    d.api('POST', '/calendar/sync/accounts', {
      body: { name: `h${Math.random().toString(36).slice(2, 8)}`, url: `${s.base}${path}`, username: 'u', password: 'p' },
    });

  it('sending a gzip bomb is cut off at the cap', async () => {
    const r = await add('/bomb/cal/');
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('caldav_too_large');
  });

  it('sending a multistatus over the cap is cut off before it is parsed', async () => {
    const r = await add(`/multistatus/${11 * 1024 * 1024}/cal/`);
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('caldav_too_large');
    expect((await d.api('GET', '/health')).status).toBe(200);
  });

  it('whose answer never ends is cut off at the cap, its socket closed', async () => {
    const r = await add('/endless/cal/');
    expect(r.json.error.code).toBe('caldav_too_large');
    await vi.waitFor(() => expect(s.open()).toBe(0), { timeout: 10_000 });
  });

  it('may not redirect to an address outside the policy', async () => {
    const before = inside.accepted();
    const r = await add(`/to/307/cal/?url=${encodeURIComponent(`${inside.base}/multistatus/100/cal/`)}`);
    expect(r.json.error.code).toBe('caldav_unreachable');
    expect(inside.accepted()).toBe(before);
  });

  it('gets no password after a redirect to another origin', async () => {
    const port = new URL(s.base).port;
    const r = await add(`/to/307/moved/?url=${encodeURIComponent(`http://localhost:${port}/multistatus/100/moved/`)}`);
    expect(r.status, r.text).toBe(201);
    const seen = s.requests.filter((q) => q.path.startsWith('/to/307/moved/') || q.path.startsWith('/multistatus/100/moved/'));
    expect(seen.find((q) => q.path.startsWith('/to/'))?.authorization).toMatch(/^Basic /);
    expect(seen.filter((q) => q.path.startsWith('/multistatus/')).every((q) => q.authorization === undefined)).toBe(true);
  });

  it('sending XML entities (billion laughs) gets a structured answer and the daemon keeps answering', async () => {
    const r = await add('/laughs/cal/');
    expect([201, 422]).toContain(r.status);
    if (r.status === 201) expect(JSON.stringify(r.json)).not.toContain('lollollol');
    else expect(r.json.error.code).toMatch(/^caldav_/);
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});
