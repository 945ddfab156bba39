import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { MCP_INIT, mcpPost } from '../helpers/mcp-raw.js';

/**
 * Rate limits count per parsed credential (the key's id, or the login token's user) and, on
 * `/mcp`, per unit of work: each tool call or resource read, each message of a batch; the
 * session's own traffic (initialize, notifications, listings, the SSE stream, DELETE) does not
 * count like an API call.
 */
const LIMIT = 5;
const app = useApp({ KAIROS_RATE_LIMIT: String(LIMIT) });

const mint = async (scopes = ['memory:read']) => {
  const r = await app.api('POST', '/auth/keys', { body: { name: 'limited', scopes } });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; key: string };
};

const get = (authorization: string) => fetch(`${app.base}/memory/pull?limit=1`, { headers: { authorization } });

describe('the bucket is the parsed credential, not the header text', () => {
  it('Bearer, bearer and extra spaces share one key’s bucket', async () => {
    const k = await mint();
    const spellings = [`Bearer ${k.key}`, `bearer ${k.key}`, `Bearer    ${k.key}`, `BEARER ${k.key}  `, `Bearer\t${k.key}`, `bearer  ${k.key}`];
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (const s of spellings) {
      const r = await get(s);
      statuses.push(r.status);
      remaining.push(r.headers.get('ratelimit-remaining'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(remaining.slice(0, 5)).toEqual(['4', '3', '2', '1', '0']);
    // Another key is its own bucket.
    expect((await get(`Bearer ${(await mint()).key}`)).status).toBe(200);
  });

  it('every login token of a user shares the user’s bucket', async () => {
    await app.api('POST', '/user/register', { body: { email: 'limited@example.com', password: 'correct horse battery', display_name: 'L' } });
    const login = async () =>
      (await app.api('POST', '/user/login', { key: null, body: { email: 'limited@example.com', password: 'correct horse battery' } })).json.token as string;
    const [a, b] = [await login(), await login()];
    expect(a).not.toBe(b);
    const statuses = [];
    for (const t of [a, b, a, b, a, b]) statuses.push((await get(`Bearer ${t}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('/mcp counts work, not transport', () => {
  it('one-shot sessions cost one call each: as many tool calls as the limit succeed, the next is 429', async () => {
    const k = await mint();
    const oneShot = async () => {
      const client = new Client({ name: 'one-shot', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${k.key}` } } });
      await client.connect(transport);
      try {
        await client.listTools();
        return await client.callTool({ name: 'memory_pull', arguments: { limit: 1 } });
      } finally {
        await transport.terminateSession().catch(() => {});
        await client.close();
      }
    };
    for (let i = 0; i < LIMIT; i++) expect((await oneShot()).isError, `session ${i + 1}`).toBeFalsy();
    await expect(oneShot()).rejects.toThrow(/429|rate/i);
  });

  it('each message of a batch counts: a batch of more tool calls than the limit is refused whole', async () => {
    const k = await mint();
    const init = await mcpPost(app.base, k.key, MCP_INIT);
    expect(init.status).toBe(200);
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    const batch = Array.from({ length: LIMIT + 1 }, (_, i) => ({
      jsonrpc: '2.0',
      id: 10 + i,
      method: 'tools/call',
      params: { name: 'memory_pull', arguments: { limit: 1 } },
    }));
    const r = await mcpPost(app.base, k.key, batch, { 'mcp-session-id': sid });
    expect(r.status).toBe(429);
    expect((await r.json()).error.code).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBe('30');
  });
});
