import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

/** One request on `agent` (keep-alive, one socket): its status, or the error that ended it. */
function call(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', (e) => resolve(`response ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    });
    req.on('error', (e) => resolve(`request ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    if (headers['transfer-encoding'] === 'chunked' && body) {
      // No declared length: the daemon finds the size only as it reads.
      for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
      req.end();
    } else req.end(body);
  });
}

/**
 * A body over the limit is refused and the connection then closes cleanly: the client is never
 * handed back a socket the daemon has already torn down (the next request on it was reset). MCP
 * reads its own bodies, the other routes through koa-body: both are tried.
 */
describe('a refused oversized body', () => {
  const d = useDaemon();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  afterAll(() => agent.destroy());
  const big = Buffer.alloc(6 * 1024 * 1024, 'x');

  it.each([
    ['/mcp', { accept: 'application/json, text/event-stream' }],
    ['/mcp', { accept: 'application/json, text/event-stream', 'transfer-encoding': 'chunked' }],
    ['/auth/keys', {}],
  ])('on %s %o leaves the next request on the same client an answer', async (path, extra) => {
    const headers = { authorization: `Bearer ${d.key}`, 'content-type': 'application/json', ...extra };
    for (let round = 0; round < 5; round++) {
      const refused = await call(agent, d.port, 'POST', path, headers, big);
      // The answer may be cut short by the close on a fast client; the daemon must not be.
      if (typeof refused === 'number') expect(refused).toBe(413);
      expect(await call(agent, d.port, 'GET', '/version', { authorization: `Bearer ${d.key}` })).toBe(200);
    }
  });
});
