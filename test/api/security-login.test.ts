import { randomBytes, scryptSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { editStoredDb, readStoredDb } from '../helpers/stored-home.js';

// Issue 14, item 6: login cannot be brute-forced or used to find out who has an account.

/** A request from a chosen loopback address (127.0.0.0/8 is all ours), with a chosen Authorization header. */
function send(
  port: number,
  method: string,
  path: string,
  opts: { from?: string; authorization?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: opts.from ?? '127.0.0.1',
        headers: {
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...(opts.authorization ? { authorization: opts.authorization } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => ok({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const login = (port: number, email: string, password: string, opts: { from?: string; authorization?: string } = {}) =>
  send(port, 'POST', '/user/login', { ...opts, body: { email, password } });

describe('login is limited per client address and per email', () => {
  // A small limit keeps the scrypt work of these tests small (one-minute windows on a slow machine).
  const d = useDaemon({ env: { KAIROS_RATE_LIMIT: '5' } });

  it('varying Authorization or ?key= buys no extra tries: the 6th login from one address is 429', async () => {
    const statuses: number[] = [];
    // Refused by validation, so no scrypt runs; the address is charged all the same.
    for (let i = 0; i < 6; i++)
      statuses.push((await login(d.port, `not-an-email-${i}`, 'guess', { from: '127.0.0.2', authorization: `Bearer kairos_sk_fake${i}` })).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    const viaQuery = await send(d.port, 'POST', '/user/login?key=kairos_sk_other', { from: '127.0.0.2', body: { email: 'a@example.com', password: 'x' } });
    expect(viaQuery.status).toBe(429);
    expect(viaQuery.body.error.code).toBe('rate_limited');
  });

  it('one email gets 5 tries a minute whatever the address; another email is not held up by it', async () => {
    // Five addresses, one try each: no address is over its own limit.
    const first = await Promise.all([10, 11, 12, 13, 14].map((n) => login(d.port, 'target@example.com', `guess ${n}`, { from: `127.0.0.${n}` })));
    expect(first.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    const sixth = await login(d.port, 'target@example.com', 'guess', { from: '127.0.0.15' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe('rate_limited');
    expect((await login(d.port, 'someone-else@example.com', 'guess', { from: '127.0.0.15' })).status).toBe(401);
  });

  it('failed keys on protected routes count against the address too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send(d.port, 'GET', '/memory/pull', { from: '127.0.0.4', authorization: `Bearer kairos_sk_bogus${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // A valid key is not held up by the failures of others on the same address.
    expect((await send(d.port, 'GET', '/memory/pull', { from: '127.0.0.4', authorization: `Bearer ${d.key}` })).status).toBe(200);
  });
});

describe('passwords', () => {
  const d = useDaemon();

  it('an unknown email costs what a wrong password costs (no enumeration by timing)', async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'known@example.com', password: 'right password', display_name: 'k' } });
    expect(reg.status, reg.text).toBe(201);
    const time = async (email: string) => {
      const t = performance.now();
      expectError(await d.api('POST', '/user/login', { key: null, body: { email, password: 'wrong password' } }), 401, 'unauthorized');
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time('known@example.com'));
      unknown.push(await time(`unknown${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    // Before: 2–8 ms against 33–84 ms. Now both run one scrypt of the same cost.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('new hashes use scrypt N=2^17; an older N=2^14 hash is replaced at the next successful login', async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'old@example.com', password: 'old password', display_name: 'o' } });
    expect(reg.status).toBe(201);
    // What the stopped daemon's home holds (db.json with the journal folded in).
    const user = async () =>
      ((await readStoredDb(d.home)).collections.users as { user_id: string; password_hash: string }[]).find((u) => u.user_id === reg.json.user_id)!;
    await d.stop();
    expect((await user()).password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);

    // Put back a hash as the previous version made it.
    const salt = randomBytes(16);
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), scryptSync('old password', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url')].join(
      '$',
    );
    await editStoredDb(d.home, (db) => {
      db.collections.users.find((u: { user_id: string }) => u.user_id === reg.json.user_id).password_hash = old;
    });
    await d.restart();

    const files = () =>
      readdirSync(d.home)
        .filter((n) => n.startsWith('db.'))
        .sort()
        .map((n) => readFileSync(join(d.home, n), 'utf8'))
        .join('\n');
    const before = files();
    expectError(await d.api('POST', '/user/login', { key: null, body: { email: 'old@example.com', password: 'wrong password' } }), 401, 'unauthorized');
    expect(files()).toBe(before); // a failed login writes nothing
    const ok = await d.api('POST', '/user/login', { key: null, body: { email: 'old@example.com', password: 'old password' } });
    expect(ok.status, ok.text).toBe(200);
    await d.stop();
    expect((await user()).password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    await d.restart();
    // …and it still verifies, and the token issued before the upgrade still works.
    expect((await d.api('POST', '/user/login', { key: null, body: { email: 'old@example.com', password: 'old password' } })).status).toBe(200);
    expect((await d.api('GET', '/memory/pull', { key: ok.json.token })).status).toBe(200);
  });
});
