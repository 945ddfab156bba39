import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../helpers/hostile-server.js';
import { startApp, type TestApp } from '../helpers/in-process.js';

/**
 * The outbound address policy of a daemon started without the tests' KAIROS_OUTBOUND_ALLOW:
 * loopback, private, link-local and metadata addresses are refused before any connection, with
 * one error whether a port is open (answering 403) or closed; config.json's
 * `outbound.allow_hosts` lets a named host through.
 */
let d: TestApp;
let s: HostileServer;
let closedPort: number;
beforeAll(async () => {
  s = await startHostileServer();
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', () => ok()));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  d = await startApp({ KAIROS_OUTBOUND_ALLOW: '' }, { config: { outbound: { allow_hosts: ['localhost'], timeout_seconds: 2 } } });
});
afterAll(async () => {
  await d?.stop();
  await s?.close();
});

/** An error with the port taken out: the only difference two URLs may make. */
const shape = (e: { code: string; message: string }) => ({ code: e.code, message: e.message.replace(/:\d+/g, ':PORT') });

describe('feeds under the address policy', () => {
  const subscribe = async (url: string) => {
    const r = await d.api('POST', '/calendar/subscriptions', { body: { url } });
    expect(r.status, r.text).toBe(201);
    return r.json.refresh.error as { code: string; message: string };
  };

  it('refuse loopback without connecting, and an open port reads like a closed one', async () => {
    const open = await subscribe(`${s.base}/status/403/feed.ics`);
    const closed = await subscribe(`http://127.0.0.1:${closedPort}/feed.ics`);
    expect(s.accepted()).toBe(0);
    expect(open.code).toBe('feed_unreachable');
    expect(shape(open)).toEqual(shape(closed));
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/feed.ics',
    'http://[::ffff:127.0.0.1]:1/feed.ics',
    'http://0.0.0.0:1/feed.ics',
  ])('refuse %s with the same error', async (url) => {
    const e = await subscribe(url);
    expect(e.code).toBe('feed_unreachable');
    expect(e.message).toMatch(/could not be reached \(a network failure, or an address kairos does not connect to/);
  });

  it('let a host named in outbound.allow_hosts through, with the deadline of outbound.timeout_seconds', async () => {
    const e = await subscribe(`http://localhost:${new URL(s.base).port}/slow/feed.ics`);
    expect(e.code).toBe('feed_timeout');
    expect(s.accepted()).toBeGreaterThan(0);
  });
});

describe('CalDAV accounts under the address policy', () => {
  const add = async (url: string) => {
    const r = await d.api('POST', '/calendar/sync/accounts', {
      body: { name: `p${Math.random().toString(36).slice(2, 8)}`, url, username: 'u', password: 'p' },
    });
    expect(r.status).toBe(422);
    return r.json.error as { code: string; message: string };
  };

  it('refuse loopback without connecting, and an open port reads like a closed one', async () => {
    const before = s.accepted();
    const open = await add(`${s.base}/status/403/cal/`);
    const closed = await add(`http://127.0.0.1:${closedPort}/cal/`);
    expect(s.accepted()).toBe(before);
    expect(open.code).toBe('caldav_unreachable');
    expect(shape(open)).toEqual(shape(closed));
  });
});
