import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { homePaths } from '../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../src/daemon/credentials.js';
import { createApp } from '../../src/server/app.js';
import { attachWebSocket } from '../../src/server/ws.js';
import { Store } from '../../src/store/store.js';
import { removeHome, tempHome } from '../helpers/daemon.js';
import { testServices } from '../helpers/in-process.js';

// In-process, so the keep-alive interval can be short.
const home = tempHome();
let store: Store;
let server: Server;
let ws: { close(): void };
let url: string;
let key: string;

beforeAll(async () => {
  store = await Store.open(homePaths(home));
  const services = testServices(store);
  key = (await ensureOwnerCredentials(services, homePaths(home).credentials)).api_key;
  server = createServer(createApp(services).callback());
  ws = attachWebSocket(server, services, { pingMs: 100 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  ws.close();
  await new Promise((r) => server.close(r));
  await store.close();
  removeHome(home);
});

const open = (autoPong: boolean) =>
  new Promise<WebSocket>((ok, fail) => {
    const s = new WebSocket(url, { headers: { authorization: `Bearer ${key}` }, autoPong });
    s.once('open', () => ok(s));
    s.once('error', fail);
  });

it('the server pings; a client that answers stays connected', async () => {
  const s = await open(true);
  let pings = 0;
  s.on('ping', () => pings++);
  await new Promise((r) => setTimeout(r, 450));
  expect(pings).toBeGreaterThanOrEqual(2);
  expect(s.readyState).toBe(WebSocket.OPEN);
  s.close();
});

it('a client that stops answering pings is dropped', async () => {
  const s = await open(false);
  const closed = await Promise.race([
    new Promise<boolean>((r) => s.once('close', () => r(true))),
    new Promise<boolean>((r) => setTimeout(() => r(false), 1500)),
  ]);
  expect(closed).toBe(true);
});
