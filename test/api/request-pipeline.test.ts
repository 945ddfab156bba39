import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

// Issue 17 made the per-request pipeline cheaper (a compiled route table instead of the router's
// scan, one function per route, pooled request ids, cached Host answers, one serialisation).
// What a client sees of routing and of a key's life must not have changed with it.

const d = useApp();

async function mint(scopes: string[]) {
  const r = await d.api('POST', '/auth/keys', { body: { name: 'pipeline', scopes } });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; key: string };
}

describe('the request pipeline', () => {
  it('refuses a revoked key on the very next request, however often it was just used', async () => {
    const k = await mint(['memory:read']);
    for (let i = 0; i < 20; i++) expect((await d.api('GET', '/memory/pull?task_id=x', { key: k.key })).status).toBe(200);
    expect((await d.api('DELETE', `/auth/keys/${k.id}`)).status).toBe(200);
    expectError(await d.api('GET', '/memory/pull?task_id=x', { key: k.key }), 401, 'unauthorized');
  });

  it('refuses a rotated secret at once and takes the new one', async () => {
    const k = await mint(['memory:read']);
    for (let i = 0; i < 5; i++) expect((await d.api('GET', '/memory/pull', { key: k.key })).status).toBe(200);
    const rot = await d.api('POST', `/auth/keys/${k.id}/rotate`);
    expect(rot.status, rot.text).toBe(200);
    expectError(await d.api('GET', '/memory/pull', { key: k.key }), 401, 'unauthorized');
    expect((await d.api('GET', '/memory/pull', { key: rot.json.key })).status).toBe(200);
  });

  it('answers pull as JSON with its type, a request id, and the same body for HEAD minus the bytes', async () => {
    const push = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'pipe', content: 'one' }] } });
    expect(push.status, push.text).toBe(201);
    const r = await d.api('GET', '/memory/pull?task_id=pipe');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
    expect(r.json.traces.map((t: { content: string }) => t.content)).toEqual(['one']);
    expect(r.headers.get('x-trace-id')).toMatch(/^rq_[0-9a-hjkmnp-tv-z]{26}$/);
    const head = await d.api('HEAD', '/memory/pull?task_id=pipe');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('gives every request its own id and keeps one the client sent', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await d.api('GET', '/health')).headers.get('x-trace-id')!);
    expect(ids.size).toBe(50);
    expect((await d.api('GET', '/health', { headers: { 'x-trace-id': 'my-id-1' } })).headers.get('x-trace-id')).toBe('my-id-1');
  });

  it('routes paths case-insensitively with one optional trailing slash, as before', async () => {
    expect((await d.api('GET', '/Memory/Pull/?task_id=x')).status).toBe(200);
    expectError(await d.api('GET', '/memory/pull//'), 404, 'not_found');
    expectError(await d.api('GET', '/memory/nothing'), 404, 'not_found');
  });

  it('refuses another method on a known path (405), lists its methods for OPTIONS, refuses unknown methods (501)', async () => {
    expectError(await d.api('DELETE', '/memory/pull'), 405, 'method_not_allowed');
    expectError(await d.api('GET', '/memory/push'), 405, 'method_not_allowed');
    const opt = await d.api('OPTIONS', '/memory/pull');
    expect(opt.status).toBe(200);
    expect(opt.headers.get('allow')).toBe('HEAD, GET');
    const { request } = await import('node:http');
    const status = await new Promise<number>((ok, fail) => {
      const req = request(`${d.base}/memory/pull`, { method: 'PROPFIND', headers: { authorization: `Bearer ${d.key}` } }, (res) => {
        res.resume();
        ok(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });
    expect(status).toBe(501);
  });

  it('a route with {params} gets them decoded, and still checks the key before anything else', async () => {
    const k = await mint(['memory:read']);
    expectError(await d.api('POST', `/auth/keys/${encodeURIComponent('key_nope')}/rotate`, { key: k.key }), 403, 'forbidden');
    expectError(await d.api('POST', '/auth/keys/key_nope/rotate', { key: 'kairos_sk_wrong' }), 401, 'unauthorized');
    expectError(await d.api('POST', '/auth/keys/key_nope/rotate'), 404, 'not_found');
  });
});
