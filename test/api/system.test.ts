import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/server/routes/index.js';
import type { ApiResult } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { startApp, useApp } from '../helpers/in-process.js';

const d = useApp();

describe('system endpoints', () => {
  it('GET /health needs no key and carries X-Trace-Id', async () => {
    const r = await d.api('GET', '/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'ok' });
    expect(r.headers.get('x-trace-id')).toMatch(/^rq_/);
  });

  it('GET /version gives api_version, version and build', async () => {
    const r = await d.api('GET', '/version', { key: null });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ api_version: '1', version: expect.any(String), build: { node: process.version, started_at: expect.any(String) } });
  });

  it('GET /openapi.json is OpenAPI 3.1 listing every route with its method and schemas', async () => {
    const r = await d.api('GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    // An independent validator checks the document against the OpenAPI 3.1 schema.
    const verdict = await new Validator().validate(r.json);
    expect(verdict.errors ?? [], JSON.stringify(verdict.errors)).toEqual([]);
    expect(verdict.valid).toBe(true);
    for (const def of allRoutes()) {
      const op = r.json.paths[def.path]?.[def.method];
      expect(op, `${def.method} ${def.path}`).toBeDefined();
      expect(op.responses[String(def.status ?? 200)]).toBeDefined();
      if (def.body) expect(op.requestBody.content['application/json'].schema).toBeTypeOf('object');
    }
    const createKey = r.json.paths['/auth/keys'].post;
    expect(createKey.requestBody.content['application/json'].schema.required).toContain('scopes');
    expect(r.json.paths['/debug/trace-dump']?.post?.description ?? 'DEBUG').toMatch(/DEBUG/);
    // Every $ref resolves inside the document (named schemas live in components.schemas).
    const refs = [...r.text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(r.json.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
  });

  it('a client-sent X-Trace-Id is echoed for correlation', async () => {
    const r = await d.api('GET', '/health', { key: null, headers: { 'x-trace-id': 'my-trace-1' } });
    expect(r.headers.get('x-trace-id')).toBe('my-trace-1');
  });
});

describe('the error envelope', () => {
  it('unknown route → 404 not_found', async () => {
    expectError(await d.api('GET', '/no/such/route'), 404, 'not_found');
  });

  it('body that is not JSON → 400 bad_request', async () => {
    expectError(await d.api('POST', '/auth/keys', { raw: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
  });

  it('wrong content type → 400 bad_request', async () => {
    expectError(await d.api('POST', '/auth/keys', { raw: 'name=x', headers: { 'content-type': 'text/plain' } }), 400, 'bad_request');
  });

  it('body over 1 MiB → 413 payload_too_large', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), scopes: ['memory:read'] });
    expectError(await d.api('POST', '/auth/keys', { raw: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
  });

  it('schema failure → 422 validation_failed with one detail per problem', async () => {
    const r = await d.api('POST', '/auth/keys', { body: { name: 5, scopes: ['nope'], extra: true } });
    expectError(r, 422, 'validation_failed');
    const paths = r.json.error.details.map((x: { path: string }) => x.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['name', 'scopes.0']));
    expect(r.json.error.details.length).toBeGreaterThanOrEqual(3);
  });

  it('an empty body where one is required → 422 naming the missing fields', async () => {
    const r = await d.api('POST', '/auth/keys', {});
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details.map((x: { path: string }) => x.path)).toEqual(expect.arrayContaining(['name', 'scopes']));
  });

  it('DEBUG-only /debug/trace-dump answers 404 without DEBUG=true', async () => {
    expectError(await d.api('POST', '/debug/trace-dump', { body: { task_id: 'x' } }), 404, 'not_found');
  });

  it('the daemon survives all of the above', async () => {
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('allows local frontends (preflight and simple requests)', async () => {
    const origin = 'http://localhost:5173';
    const pre = await d.api('OPTIONS', '/memory/pull', {
      key: null,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const simple = await d.api('GET', '/health', { key: null, headers: { origin: 'http://127.0.0.1:3000' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });

  it('does not allow other origins', async () => {
    const r = await d.api('GET', '/health', { key: null, headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  it('429 rate_limited with Retry-After: 30 past the limit, RateLimit-* on every response', async () => {
    const rl = await startApp({ KAIROS_RATE_LIMIT: '5' });
    try {
      const rs: ApiResult[] = [];
      for (let i = 0; i < 7; i++) rs.push(await rl.api('GET', '/agent/status'));
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(rs[0]!.headers.get('ratelimit-limit')).toBe('5');
      expect(rs[0]!.headers.get('ratelimit-remaining')).toBe('4');
      expect(Number(rs[0]!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expectError(rs[5]!, 429, 'rate_limited');
      expect(rs[5]!.headers.get('retry-after')).toBe('30');
      // Another key has its own bucket.
      const other = await rl.api('POST', '/auth/keys', { key: null });
      expect(other.status).toBe(401);
    } finally {
      await rl.stop();
    }
  });
});
