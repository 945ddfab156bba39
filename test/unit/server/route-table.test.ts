import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../src/server/route.js';
import { RouteTable } from '../../../src/server/route-table.js';
import { allRoutes } from '../../../src/server/routes/index.js';

const def = (method: RouteDef['method'], path: string): RouteDef => ({ method, path, tag: 't', summary: path, auth: 'none', handler: () => path });

describe('the compiled route table', () => {
  const table = new RouteTable([
    def('get', '/memory/pull'),
    def('post', '/memory/push'),
    def('get', '/agent/plans/{plan_id}'),
    def('get', '/agent/plans/export'),
    def('post', '/auth/keys/{id}/rotate'),
    def('delete', '/auth/keys/{id}'),
  ]);
  const hit = (method: string, path: string) => {
    const m = table.match(method, path);
    return m.kind === 'route' ? { path: m.def.path, params: m.params } : m;
  };

  it('finds a fixed path, case-insensitively, with one optional trailing slash; a GET route answers HEAD', () => {
    expect(hit('GET', '/memory/pull')).toEqual({ path: '/memory/pull', params: {} });
    expect(hit('GET', '/Memory/PULL/')).toEqual({ path: '/memory/pull', params: {} });
    expect(hit('HEAD', '/memory/pull')).toEqual({ path: '/memory/pull', params: {} });
    expect(hit('GET', '/memory/pull//')).toEqual({ kind: 'none' });
    expect(hit('GET', '/memory/pul')).toEqual({ kind: 'none' });
    expect(hit('GET', '/memory/%70ull')).toEqual({ kind: 'none' });
  });

  it('fills path parameters, percent-decoded (kept as sent when that fails)', () => {
    expect(hit('POST', '/auth/keys/key_1/rotate')).toEqual({ path: '/auth/keys/{id}/rotate', params: { id: 'key_1' } });
    expect(hit('DELETE', '/auth/keys/a%20b')).toEqual({ path: '/auth/keys/{id}', params: { id: 'a b' } });
    expect(hit('DELETE', '/auth/keys/%E0%A4%A')).toEqual({ path: '/auth/keys/{id}', params: { id: '%E0%A4%A' } });
    expect(hit('DELETE', '/auth/keys/a/b')).toEqual({ kind: 'none' });
  });

  it('gives the first route of the table that matches, a fixed path included', () => {
    // /agent/plans/{plan_id} comes first, so "export" is a plan id, as it always was.
    expect(hit('GET', '/agent/plans/export')).toEqual({ path: '/agent/plans/{plan_id}', params: { plan_id: 'export' } });
  });

  it('names the methods a path has when the request used another', () => {
    expect(hit('DELETE', '/memory/pull')).toEqual({ kind: 'other-methods', allow: ['HEAD', 'GET'] });
    expect(hit('GET', '/auth/keys/k/rotate')).toEqual({ kind: 'other-methods', allow: ['POST'] });
    expect(hit('OPTIONS', '/auth/keys/k')).toEqual({ kind: 'other-methods', allow: ['DELETE'] });
  });

  it('matches every route of the API to itself', () => {
    const routes = allRoutes();
    const t = new RouteTable(routes);
    for (const r of routes) {
      const path = r.path.replace(/\{(\w+)\}/g, 'x1');
      const m = t.match(r.method.toUpperCase(), path);
      expect(m.kind, `${r.method} ${r.path}`).toBe('route');
      if (m.kind === 'route') expect(m.def.path === r.path || m.def.path.includes('{'), `${r.method} ${r.path}`).toBe(true);
    }
  });
});
