import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/http.js';
import { useDaemon } from '../helpers/daemon.js';

// The CLI trusts daemon.json without asking /health first (one round trip less on every command,
// src/client/connect.ts). When that address refuses the connection (the daemon stopped or moved),
// the client finds the daemon again and sends the request there, once.

const d = useDaemon();

/** A loopback port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

describe('a client on an address from daemon.json', () => {
  it('finds the daemon again when the address refuses, and sends the request there once', async () => {
    let found = 0;
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${await deadPort()}`,
      apiKey: d.key,
      rediscover: async () => {
        found++;
        return d.base;
      },
    });
    const page = await client.call('GET /memory/pull', { query: { task_id: 'nothing-here' } });
    expect(page.traces).toEqual([]);
    expect(client.baseUrl).toBe(d.base);
    await client.call('GET /memory/pull', { query: { task_id: 'nothing-here' } });
    expect(found).toBe(1);
  });

  it('says the daemon is unreachable when it cannot be found again', async () => {
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${await deadPort()}`, rediscover: async () => `http://127.0.0.1:${await deadPort()}` });
    await expect(client.call('GET /health')).rejects.toMatchObject({ code: 'daemon_unreachable' });
  });

  it('confirmedBaseUrl (for a WebSocket) finds it again first; without rediscover the address stays', async () => {
    const moved = new ApiClient({ baseUrl: 'http://127.0.0.1:1', rediscover: async () => d.base });
    expect(await moved.confirmedBaseUrl()).toBe(d.base);
    const fixed = new ApiClient({ baseUrl: `${d.base}/` });
    expect(await fixed.confirmedBaseUrl()).toBe(d.base);
  });
});
