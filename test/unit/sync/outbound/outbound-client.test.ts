import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboundClient } from '../../../../src/sync/outbound/outbound-client.js';
import { OutboundError } from '../../../../src/sync/outbound/outbound-error.js';
import { type HostileServer, startHostileServer } from '../../../helpers/hostile-server.js';

/** The outbound client against the hostile-server kit on loopback (let through by name). */
let s: HostileServer;
let other: HostileServer;
const client = createOutboundClient({ allowHosts: ['127.0.0.1', 'localhost'], maxBytes: 1024 * 1024, timeoutMs: 3000 });
beforeAll(async () => {
  s = await startHostileServer({ bombMiB: 16 });
  // A loopback address outside the allow list: the stand-in for a private service.
  other = await startHostileServer({ host: '127.0.0.2' });
});
afterAll(async () => {
  await s?.close();
  await other?.close();
});

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(OutboundError);
  return e as OutboundError;
}

/** Every socket the client opened is closed again (the server sees its end). */
const allClosed = () => vi.waitFor(() => expect(s.open()).toBe(0), { timeout: 5000 });

describe('the outbound client', () => {
  it('cuts a gzip bomb where its inflated size passes the cap', async () => {
    const e = await failure(client.fetch(`${s.base}/bomb/a`));
    expect(e.code).toBe('too_large');
    await allClosed();
  });

  it('cuts an endless body at the cap and closes its socket', async () => {
    expect((await failure(client.fetch(`${s.base}/endless/a`))).code).toBe('too_large');
    await allClosed();
  });

  it('holds one deadline over a body that trickles', async () => {
    expect((await failure(client.fetch(`${s.base}/slow/a`))).code).toBe('timeout');
    await allClosed();
  });

  it.each([404, 500, 300, 403])('closes the socket of a %i whose body never ends', async (status) => {
    const res = await client.fetch(`${s.base}/endless-status/${status}/a`);
    expect(res.status).toBe(status);
    await allClosed();
  });

  it('stops a redirect loop', async () => {
    const e = await failure(client.fetch(`${s.base}/loop/a`));
    expect(e.code).toBe('redirects');
    expect(e.message).toMatch(/more than 5/);
  });

  it('refuses a redirect to an address outside the policy without connecting to it', async () => {
    const before = other.accepted();
    const e = await failure(client.fetch(`${s.base}/to/302/a?url=${encodeURIComponent(`${other.base}/status/200/`)}`));
    expect(e.code).toBe('unreachable');
    expect(other.accepted()).toBe(before);
  });

  it('drops credentials on a redirect to another origin, keeps them on the same one', async () => {
    const port = new URL(s.base).port;
    const same = `${s.base}/to/307/same?url=${encodeURIComponent(`/multistatus/100/same/`)}`;
    const cross = `${s.base}/to/307/cross?url=${encodeURIComponent(`http://localhost:${port}/multistatus/100/cross/`)}`;
    for (const url of [same, cross]) expect((await client.fetch(url, { method: 'PROPFIND', headers: { authorization: 'Basic c2VjcmV0' } })).status).toBe(207);
    const auth = (path: string) => s.requests.find((r) => r.path.startsWith(path))?.authorization;
    expect(auth('/to/307/same')).toBe('Basic c2VjcmV0');
    expect(auth('/multistatus/100/same/')).toBe('Basic c2VjcmV0');
    expect(auth('/to/307/cross')).toBe('Basic c2VjcmV0');
    expect(auth('/multistatus/100/cross/')).toBeUndefined();
  });

  it('keeps no reason phrase', async () => {
    const res = await client.fetch(`${s.base}/status/403/a`);
    expect(res.status).toBe(403);
    expect(res.statusText).toBe('');
  });

  it('gives one error for a refused address, a closed port and an open one', async () => {
    const strict = createOutboundClient();
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', () => ok()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const before = s.accepted();
    const open = await failure(strict.fetch(`${s.base}/status/403/a`));
    const shut = await failure(strict.fetch(`http://127.0.0.1:${port}/a`));
    const named = await failure(strict.fetch(`http://localhost:${new URL(s.base).port}/status/403/a`));
    expect(s.accepted()).toBe(before);
    const shape = (e: OutboundError) => ({ code: e.code, message: e.message.replace(/:\d+/, ':PORT').replace('localhost', '127.0.0.1') });
    expect(shape(open)).toEqual(shape(shut));
    expect(shape(named)).toEqual(shape(shut));
    expect(open.code).toBe('unreachable');
  });
});
