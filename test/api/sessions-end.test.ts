import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { homePaths } from '../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../src/daemon/credentials.js';
import { createApp } from '../../src/server/app.js';
import { attachWebSocket } from '../../src/server/ws.js';
import { Store } from '../../src/store/store.js';
import { apiCaller, removeHome, tempHome } from '../helpers/daemon.js';
import { testServices } from '../helpers/in-process.js';
import { MCP_INIT, mcpPost } from '../helpers/mcp-raw.js';

/**
 * A session (`/ws`, an MCP session and its SSE stream) ends as soon as its credential stops
 * standing, without waiting for a keep-alive or for the next event to send: a key revoked or
 * rotated, a login token outdated by a password change, a user removed. The app runs in-process
 * so that the test can remove a user from the store, which no route does.
 */
const home = tempHome();
let store: Store;
let server: Server;
let ws: { close(): void };
let base: string;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  store = await Store.open(homePaths(home));
  const services = testServices(store);
  const key = (await ensureOwnerCredentials(services, homePaths(home).credentials)).api_key;
  server = createServer(createApp(services).callback());
  // The keep-alive sweep, which also checks credentials, is kept out of the way: only the push may close.
  ws = attachWebSocket(server, services, { pingMs: 3_600_000 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = apiCaller(base, key);
});
afterAll(async () => {
  ws.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await store.close();
  removeHome(home);
});

/** Long enough for any push to land on a loaded machine. */
const WAIT_MS = 5000;

let users = 0;
/** A second user with a password, its login token, and a key of its own with `scopes`. */
async function person(scopes = ['memory:read', 'calendar:read']) {
  const email = `person-${++users}@example.com`;
  const reg = await api('POST', '/user/register', { body: { email, password: 'correct horse battery', display_name: 'P' } });
  expect(reg.status, reg.text).toBe(201);
  const login = await api('POST', '/user/login', { key: null, body: { email, password: 'correct horse battery' } });
  expect(login.status, login.text).toBe(200);
  const k = await api('POST', '/auth/keys', { body: { name: 'p', scopes, user_id: reg.json.user_id } });
  expect(k.status, k.text).toBe(201);
  return { userId: reg.json.user_id as string, token: login.json.token as string, key: k.json.key as string, keyId: k.json.id as string };
}

async function socket(credential: string) {
  const s = new WebSocket(`${base.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${credential}` } });
  const messages: string[] = [];
  s.on('message', (m) => messages.push(String(m)));
  const closed = new Promise<{ code: number }>((r) => s.on('close', (code) => r({ code })));
  await new Promise<void>((ok, fail) => {
    s.once('open', () => ok());
    s.once('error', fail);
  });
  return { s, messages, closed };
}

/** What `p` settles to, or 'still open' when it does not within WAIT_MS. */
const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<string>((r) => setTimeout(() => r('still open'), WAIT_MS))]);
const closeCode = (c: { closed: Promise<{ code: number }> }) => within(c.closed.then((x) => x.code));

describe('/ws ends with its credential, at once and without a further event', () => {
  it('a login token, when the password changes', async () => {
    const p = await person();
    const c = await socket(p.token);
    const changed = await api('POST', '/user/password', {
      key: p.token,
      body: { password: 'a brand new passphrase', current_password: 'correct horse battery' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await closeCode(c)).toBe(4401);
  });

  it('a key, when it is revoked', async () => {
    const p = await person();
    const c = await socket(p.key);
    expect((await api('DELETE', `/auth/keys/${p.keyId}`)).status).toBe(200);
    expect(await closeCode(c)).toBe(4401);
  });

  it('a key, when it is rotated', async () => {
    const p = await person();
    const c = await socket(p.key);
    expect((await api('POST', `/auth/keys/${p.keyId}/rotate`)).status).toBe(200);
    expect(await closeCode(c)).toBe(4401);
  });

  it('a key and a token, when their user is removed; other users keep theirs', async () => {
    const p = await person();
    const other = await person();
    const byKey = await socket(p.key);
    const byToken = await socket(p.token);
    const bystander = await socket(other.key);
    await store.transact((tx) => tx.delete('users', p.userId));
    expect(await closeCode(byKey)).toBe(4401);
    expect(await closeCode(byToken)).toBe(4401);
    expect(bystander.s.readyState).toBe(WebSocket.OPEN);
    bystander.s.close();
    // The removed user's key no longer opens anything.
    expect((await api('GET', '/memory/pull', { key: p.key })).status).toBe(401);
  });
});

/** One MCP session over raw HTTP, with its SSE stream (GET) read into `events`. */
async function mcpSession(credential: string) {
  const post = async (body: unknown, sid?: string) => {
    const r = await mcpPost(base, credential, body, sid ? { 'mcp-session-id': sid } : {});
    return { status: r.status, sid: r.headers.get('mcp-session-id'), text: await r.text() };
  };
  const init = await post(MCP_INIT);
  expect(init.status, init.text).toBe(200);
  const sid = init.sid!;
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).status).toBe(202);
  const sub = await post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'kairos://calendar/today' } }, sid);
  expect(sub.status, sub.text).toBe(200);
  const sse = await fetch(`${base}/mcp`, {
    headers: { authorization: `Bearer ${credential}`, accept: 'text/event-stream', 'mcp-session-id': sid },
  });
  expect(sse.status).toBe(200);
  let events = '';
  const reader = sse.body!.getReader();
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return 'ended';
      events += Buffer.from(value!).toString('utf8');
    }
  })();
  return { sid, post, ended, events: () => events, stop: () => reader.cancel().catch(() => {}) };
}

const soon = () => new Date(Date.now() + 3_600_000).toISOString();

describe('an MCP session ends with its credential: its SSE stream closes, nothing more is sent', () => {
  it('a key, when it is revoked', async () => {
    const p = await person(['memory:read', 'calendar:read', 'calendar:write']);
    const m = await mcpSession(p.key);
    // The stream delivers while the key stands.
    expect((await api('POST', '/calendar/create', { key: p.key, body: { title: 'before', scheduled_for: soon() } })).status).toBe(201);
    for (let i = 0; i < 50 && !m.events().includes('notifications/resources/updated'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(m.events()).toContain('notifications/resources/updated');

    expect((await api('DELETE', `/auth/keys/${p.keyId}`)).status).toBe(200);
    expect(await within(m.ended)).toBe('ended');
    const seen = m.events();
    // The same user's changes made another way reach no one on that session.
    const owner = await api('POST', '/calendar/create', { key: p.token, body: { title: 'after', scheduled_for: soon() } });
    expect(owner.status, owner.text).toBe(201);
    expect(m.events()).toBe(seen);
    // Any later use of the session is refused.
    expect((await m.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, m.sid)).status).toBe(401);
  });

  it('a login token, when the user is removed', async () => {
    const p = await person();
    const m = await mcpSession(p.token);
    await store.transact((tx) => tx.delete('users', p.userId));
    expect(await within(m.ended)).toBe('ended');
    expect((await m.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, m.sid)).status).toBe(401);
  });

  it('a login token, when the password changes', async () => {
    const p = await person();
    const m = await mcpSession(p.token);
    const changed = await api('POST', '/user/password', {
      key: p.token,
      body: { password: 'a brand new passphrase', current_password: 'correct horse battery' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await within(m.ended)).toBe('ended');
    m.stop();
  });
});
