import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../src/server/route.js';
import { createRouter, routerPath, unroutedAnswers } from '../../../src/server/route-table.js';
import { allRoutes } from '../../../src/server/routes/index.js';

const def = (method: RouteDef['method'], path: string): RouteDef => ({ method, path, tag: 't', summary: path, auth: 'none', handler: () => path });

/** The route table's router in a bare Koa app: each route answers with its path and params. */
function appOf(routes: RouteDef[]) {
  const router = createRouter(routes, (d) => async (ctx) => {
    ctx.body = { path: d.path, params: { ...ctx.params } };
  });
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      ctx.status = (e as { status: number }).status;
      ctx.body = { code: (e as { code: string }).code };
    }
  });
  app.use(router.routes());
  app.use(unroutedAnswers(router));
  const handle = app.callback();
  return async (method: string, url: string) => {
    const { createServer } = await import('node:http');
    const server = createServer(handle);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}${url}`, { method });
      const text = await res.text();
      return { status: res.status, allow: res.headers.get('allow'), body: text.startsWith('{') ? JSON.parse(text) : undefined };
    } finally {
      server.close();
    }
  };
}

describe('the route table, routed by @koa/router', () => {
  const call = appOf([
    def('get', '/memory/pull'),
    def('post', '/memory/push'),
    def('get', '/agent/plans/{plan_id}'),
    def('get', '/agent/plans/export'),
    def('post', '/auth/keys/{id}/rotate'),
    def('delete', '/auth/keys/{id}'),
  ]);
  const hit = async (method: string, url: string) => {
    const r = await call(method, url);
    return r.status === 200 && r.body ? r.body : { status: r.status, ...(r.body ?? {}) };
  };

  it('finds a fixed path, case-insensitively, with one optional trailing slash; a GET route answers HEAD', async () => {
    expect(await hit('GET', '/memory/pull')).toEqual({ path: '/memory/pull', params: {} });
    expect(await hit('GET', '/Memory/PULL/')).toEqual({ path: '/memory/pull', params: {} });
    expect((await call('HEAD', '/memory/pull')).status).toBe(200);
    expect((await call('GET', '/memory/pull//')).status).toBe(404);
    expect((await call('GET', '/memory/pul')).status).toBe(404);
  });

  it('fills path parameters, percent-decoded', async () => {
    expect(await hit('POST', '/auth/keys/key_1/rotate')).toEqual({ path: '/auth/keys/{id}/rotate', params: { id: 'key_1' } });
    expect(await hit('DELETE', '/auth/keys/a%20b')).toEqual({ path: '/auth/keys/{id}', params: { id: 'a b' } });
    expect((await call('DELETE', '/auth/keys/a/b')).status).toBe(404);
  });

  it('gives the first route of the table that matches, a fixed path included', async () => {
    // /agent/plans/{plan_id} comes first, so "export" is a plan id, as it always was.
    expect(await hit('GET', '/agent/plans/export')).toEqual({ path: '/agent/plans/{plan_id}', params: { plan_id: 'export' } });
  });

  it('lists the methods of a path for OPTIONS, refuses another method with 405 and an unknown one with 501', async () => {
    expect(await call('OPTIONS', '/auth/keys/k')).toMatchObject({ status: 200, allow: 'DELETE' });
    expect(await hit('DELETE', '/memory/pull')).toEqual({ status: 405, code: 'method_not_allowed' });
    expect(await hit('GET', '/auth/keys/k/rotate')).toEqual({ status: 405, code: 'method_not_allowed' });
    expect(await hit('PROPFIND', '/memory/pull')).toEqual({ status: 501, code: 'not_implemented' });
    expect(await hit('PROPFIND', '/nowhere')).toEqual({ status: 501, code: 'not_implemented' });
  });

  it('turns every path of the API into a router path, and matches each route to itself', async () => {
    const routes = allRoutes();
    const router = createRouter(routes, () => async () => {});
    for (const r of routes) {
      expect(routerPath(r.path)).not.toMatch(/[{}]/);
      const path = r.path.replace(/\{(\w+)\}/g, 'x1');
      const m = router.match(path, r.method.toUpperCase());
      expect(m.route, `${r.method} ${r.path}`).toBe(true);
    }
  });
});
