import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contracts/scope-list.js';
import { FIXED_RESOURCES } from '../../src/mcp/resources.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { type ApiResult, cliEnv, runCli, tempHome, useDaemon } from '../helpers/daemon.js';
import { MCP_INIT, mcpPost } from '../helpers/mcp-raw.js';

/**
 * The route table, tried with a key of each single scope: generated from `x-kairos-auth` in
 * /openapi.json, which the daemon builds from the same table that authorizes requests. A key
 * without the declared scope gets 403 and changes nothing; with it, never 401/403 (except where
 * the table notes a further check in the handler). A new route needs an entry in SAMPLES below,
 * and a public one a place in PUBLIC: otherwise this file fails. The MCP endpoint is tried the
 * same way: each key sees exactly the tools and resources whose route its scope meets, calls
 * them without a refusal, and cannot call the others (TOOL_SAMPLES needs an entry per tool).
 */

// Snapshots only on demand, so that the store's files change exactly when data changes.
const d = useDaemon(() => {
  const home = tempHome();
  writeFileSync(join(home, 'config.json'), JSON.stringify({ snapshot: { every_ops: 1_000_000, every_ms: 86_400_000 } }));
  return { home, env: { DEBUG: 'true' } };
});

/** The only routes that take no credential at all. */
const PUBLIC = ['GET /health', 'GET /version', 'GET /openapi.json', 'POST /user/login', 'POST /app/session', 'GET /app/session', 'DELETE /app/session'];

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//kairos-test//EN',
  'BEGIN:VEVENT',
  'UID:route-scopes-1',
  'DTSTAMP:20250101T000000Z',
  'DTSTART:20250601T100000Z',
  'DTEND:20250601T110000Z',
  'SUMMARY:imported',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

let registered = 0;
type Sample = { query?: string; body?: unknown };
/**
 * A request to each route, valid enough to reach its handler (several where a route has variants
 * that reach different code). `{id}` is another key's id, `{plan_id}` an unknown plan.
 */
const SAMPLES: Record<string, () => Sample | Sample[]> = {
  'GET /health': () => ({}),
  'GET /version': () => ({}),
  'GET /openapi.json': () => ({}),
  'POST /user/login': () => ({ body: { email: 'nobody@example.com', password: 'whatever' } }),
  'POST /app/codes': () => ({}),
  'POST /app/session': () => [{ body: { code: 'unknown' } }, { body: { email: 'nobody@example.com', password: 'whatever' } }],
  'GET /app/session': () => ({}),
  'DELETE /app/session': () => ({}),
  'GET /agent/status': () => ({}),
  'POST /auth/keys': () => ({ body: { name: 'made-by-matrix', scopes: ['memory:read'] } }),
  'GET /auth/keys': () => ({}),
  'GET /auth/whoami': () => ({}),
  'POST /auth/keys/{id}/rotate': () => ({}),
  'DELETE /auth/keys/{id}': () => ({}),
  'POST /user/register': () => ({ body: { email: `matrix-${++registered}@example.com`, password: 'long enough password', display_name: 'matrix' } }),
  'GET /user/profile': () => ({}),
  'PATCH /user/update': () => ({ body: { updates: { display_name: 'Owner' } } }),
  'POST /user/password': () => ({ body: { email: 'owner@example.com', password: 'a new long password' } }),
  'POST /memory/push': () => ({ body: { traces: [{ type: 'observation', task_id: 'matrix', content: 'from the matrix' }] } }),
  'GET /memory/pull': () => ({}),
  'PATCH /memory/edit': () => ({ body: { uid: 'tr_unknown', updates: { content: 'x' } } }),
  'GET /memory/history': () => ({ query: 'uid=tr_unknown' }),
  'POST /memory/search': () => ({ body: { query: 'matrix' } }),
  'POST /chat/plan-preview': () => ({ body: { prompt: 'gym tomorrow at 7am for 1h' } }),
  'POST /chat/respond': () => ({ body: { prompt: 'gym tomorrow at 7am for 1h' } }),
  'POST /chat/trace-summary': () => ({ body: { trace_ids: ['tr_unknown'] } }),
  'POST /debug/trace-dump': () => ({ body: { trace_uid: 'tr_unknown' } }),
  'GET /debug/event-loop': () => ({}),
  'POST /calendar/create': () => ({ body: { title: 'matrix', scheduled_for: '2025-06-02T10:00:00Z', duration_minutes: 30 } }),
  'GET /calendar/events': () => ({ query: 'start=2025-06-01T00:00:00Z&end=2025-06-08T00:00:00Z' }),
  'GET /calendar/free': () => ({ query: 'date=2025-06-02&duration_minutes=30' }),
  'PATCH /calendar/edit': () => ({ body: { uid: 'ev_unknown', updates: { title: 'x' } } }),
  'DELETE /calendar/remove': () => ({ query: 'uid=ev_unknown' }),
  'POST /calendar/remove-many': () => ({ body: { import_id: 'im_unknown' } }),
  'GET /changes': () => ({}),
  'POST /changes/undo': () => ({ body: { id: 'pl_unknown', simulate: true } }),
  'POST /calendar/import': () => ({ body: { ics: ICS } }),
  'GET /calendar/export.ics': () => ({}),
  'GET /calendar/feed.ics': () => ({}),
  'POST /calendar/subscriptions': () => ({ body: { url: 'http://127.0.0.1:9/none.ics', name: 'matrix' } }),
  'GET /calendar/subscriptions': () => ({}),
  'POST /calendar/subscriptions/{id}/refresh': () => ({}),
  'DELETE /calendar/subscriptions/{id}': () => ({}),
  'POST /calendar/sync/accounts': () => [
    { body: { name: 'matrix', url: 'http://127.0.0.1:9/cal/', username: 'u', password: 'p' } },
    // The OAuth variant: a provider's grant is worth more than a password, so the same baseline first.
    { body: { name: 'matrix-oauth', url: 'http://127.0.0.1:9/cal/', oauth: 'google' } },
  ],
  'GET /calendar/sync/accounts': () => ({}),
  'POST /calendar/sync/run': () => ({}),
  'DELETE /calendar/sync/accounts/{name}': () => ({}),
  'GET /calendar/sync/oauth': () => ({}),
  'DELETE /calendar/sync/oauth/{name}': () => ({}),
  'GET /tempo/tags': () => ({}),
  'GET /tempo/profile': () => ({}),
  'POST /tempo/adjust': () => ({ body: { preferences: { tag_mappings: { gym: '@morning' } } } }),
  'GET /context/export': () => ({}),
  'GET /context/checkpoints': () => ({}),
  'POST /agent/plan': () => ({ body: { actions: [{ kind: 'create_event', title: 'matrix', scheduled_for: '2031-06-02T10:00:00Z', duration_minutes: 30 }] } }),
  'GET /agent/queue': () => ({}),
  'GET /agent/plans/{plan_id}': () => ({}),
  'POST /agent/approve': () => ({ body: { plan_id: 'pl_unknown' } }),
  'POST /agent/reject': () => ({ body: { plan_id: 'pl_unknown' } }),
  'POST /agent/execute': () => ({ body: { plan_id: 'pl_unknown', simulate: true } }),
  'POST /agent/feedback': () => ({ body: { uid: 'tr_unknown', rating: 4 } }),
};

type AuthSpec = { public: true } | { any_of: string[]; key_in?: 'query'; self_key?: true; note?: string };
interface Op {
  id: string;
  method: string;
  path: string;
  auth: AuthSpec | undefined;
}

let ops: Op[] = [];
let victim: { id: string; key: string };

/** Every file of the store, hashed: equal before and after means nothing was written. */
function storeFingerprint(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(d.home)
    .filter((n) => n.startsWith('db.'))
    .sort())
    h.update(f).update(readFileSync(join(d.home, f)));
  h.update(readFileSync(join(d.home, 'credentials.json')));
  return h.digest('hex');
}

/** Each sample of a route, sent with `key`. */
async function calls(op: Op, key: string): Promise<ApiResult[]> {
  const path = op.path.replace('{id}', victim.id).replace('{plan_id}', 'pl_unknown').replace('{name}', 'unknown');
  const inQuery = op.auth && 'key_in' in op.auth && op.auth.key_in === 'query';
  const out: ApiResult[] = [];
  for (const sample of [SAMPLES[op.id]!()].flat()) {
    const query = [sample.query, inQuery ? `key=${encodeURIComponent(key)}` : undefined].filter(Boolean).join('&');
    out.push(
      await d.api(op.method, path + (query ? `?${query}` : ''), { key: inQuery ? null : key, ...(sample.body !== undefined ? { body: sample.body } : {}) }),
    );
  }
  return out;
}

/** Whether a key holding exactly `scope` meets a route's declared baseline (other keys' ids only for admin). */
function held(auth: Exclude<AuthSpec, { public: true }>, scope: string, targetsOtherKey: boolean): boolean {
  if (scope === 'admin') return true;
  if (auth.self_key && targetsOtherKey) return false;
  return auth.any_of.includes(scope);
}

beforeAll(async () => {
  const doc = (await d.api('GET', '/openapi.json', { key: null })).json as { paths: Record<string, Record<string, Record<string, unknown>>> };
  ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([m, o]) => ({
      id: `${m.toUpperCase()} ${path}`,
      method: m.toUpperCase(),
      path,
      auth: o['x-kairos-auth'] as AuthSpec | undefined,
    })),
  );
  const v = await d.api('POST', '/auth/keys', { body: { name: 'victim', scopes: [...SCOPES] } });
  expect(v.status, v.text).toBe(201);
  victim = v.json;
});

describe('the route table', () => {
  it('every route declares its permission, and only the known few are public', () => {
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops) expect(op.auth, `${op.id} declares no permission`).toBeDefined();
    expect(
      ops
        .filter((o) => o.auth && 'public' in o.auth)
        .map((o) => o.id)
        .sort(),
    ).toEqual([...PUBLIC].sort());
    for (const op of ops) if (op.auth && !('public' in op.auth)) expect(op.auth.any_of.length, op.id).toBeGreaterThan(0);
  });

  it('every route has a sample request here (add one for a new route)', () => {
    expect(ops.map((o) => o.id).filter((id) => !SAMPLES[id])).toEqual([]);
  });
});

describe('route × scope', () => {
  // The feed key as `kairos cal subscribe-url` mints it, then one key per scope; admin last (it changes things).
  const principals = ['subscribe-url', ...SCOPES.filter((s) => s !== 'admin'), 'admin'];

  it.each(principals)('a key with only %s: 403 and nothing written unless the route declares it', async (who) => {
    let key: string;
    let scope: string;
    if (who === 'subscribe-url') {
      const r = await runCli(['--json', 'cal', 'subscribe-url'], { env: cliEnv(d) });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { url: string; scopes: string[] };
      expect(out.scopes).toEqual(['calendar:feed']);
      key = new URL(out.url).searchParams.get('key')!;
      scope = 'calendar:feed';
    } else {
      const r = await d.api('POST', '/auth/keys', { body: { name: `only-${who}`, scopes: [who] } });
      expect(r.status, r.text).toBe(201);
      key = r.json.key;
      scope = who;
    }
    const protectedOps = ops.filter((o) => o.auth && !('public' in o.auth));
    const refused = protectedOps.filter((o) => !held(o.auth as Exclude<AuthSpec, { public: true }>, scope, o.path.includes('{id}')));
    const allowed = protectedOps.filter((o) => !refused.includes(o));

    const before = storeFingerprint();
    for (const op of refused) {
      for (const r of await calls(op, key)) {
        expect(r.status, `${op.id} with ${who}: ${r.text}`).toBe(403);
        expect(r.json?.error?.code, op.id).toBe('forbidden');
      }
    }
    expect(storeFingerprint(), `a refused request of ${who} changed the store`).toBe(before);
    // The owner and the other key still work, unchanged.
    expect((await d.api('GET', '/auth/keys')).status).toBe(200);
    expect((await d.api('GET', '/memory/pull', { key: victim.key })).status).toBe(200);

    for (const op of allowed) {
      for (const r of await calls(op, key)) {
        expect(r.status, `${op.id} with ${who}: ${r.text}`).not.toBe(401);
        expect(r.status, `${op.id} with ${who}: ${r.text}`).toBeLessThan(500);
        const note = (op.auth as { note?: string }).note;
        if (!note || scope === 'admin') expect(r.status, `${op.id} with ${who}: ${r.text}`).not.toBe(403);
      }
    }
  });
});

/** Arguments for each MCP tool, valid enough to reach its route (unknown ids answer not_found). */
const TOOL_SAMPLES: Record<string, Record<string, unknown>> = {
  memory_search: { query: 'matrix' },
  memory_pull: {},
  memory_push: { traces: [{ type: 'observation', task_id: 'matrix-mcp', content: 'from the MCP matrix' }] },
  memory_history: { uid: 'tr_unknown' },
  calendar_events: { start: '2025-06-01T00:00:00Z', end: '2025-06-08T00:00:00Z' },
  calendar_free_slots: { start: '2025-06-02T08:00:00Z', end: '2025-06-02T12:00:00Z' },
  tempo_profile: {},
  plan_propose: { actions: [{ kind: 'add_event', title: 'matrix', scheduled_for: '2031-06-02T10:00:00Z', duration_minutes: 30 }] },
  plan_status: { plan_id: 'pl_unknown' },
  context_export: { export_format: 'summary' },
};

const mcpClients: Client[] = [];
afterEach(async () => {
  await Promise.all(mcpClients.splice(0).map((c) => c.close().catch(() => {})));
});

async function mcpConnect(key: string): Promise<Client> {
  const client = new Client({ name: 'route-scopes', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  mcpClients.push(client);
  return client;
}

const toolText = (r: { content?: unknown }) => (r.content as { text?: string }[] | undefined)?.[0]?.text ?? '';
/** A tool call's result; a call the session has no handler for at all (no tools) is an error too. */
const callTool = (c: Client, name: string) =>
  c.callTool({ name, arguments: TOOL_SAMPLES[name]! }).catch((e: unknown) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));

describe('MCP tool × scope', () => {
  it('every tool has a sample call here (add one for a new tool)', () => {
    expect(TOOLS.map((t) => t.name).filter((n) => !TOOL_SAMPLES[n])).toEqual([]);
  });

  it('the feed key opens no MCP session (403)', async () => {
    const r = await runCli(['--json', 'cal', 'subscribe-url'], { env: cliEnv(d) });
    const key = new URL((JSON.parse(r.stdout) as { url: string }).url).searchParams.get('key')!;
    expect((await mcpPost(d.base, key, MCP_INIT)).status).toBe(403);
  });

  // The feed key is above; admin last, as in the route matrix.
  it.each(SCOPES.filter((s) => s !== 'admin' && s !== 'calendar:feed').concat('admin'))(
    'a key with only %s sees and calls exactly the tools and resources its scope meets',
    async (scope) => {
      const minted = await d.api('POST', '/auth/keys', { body: { name: `mcp-only-${scope}`, scopes: [scope] } });
      expect(minted.status, minted.text).toBe(201);
      const byId = new Map(ops.map((o) => [o.id, o]));
      const meets = (endpoint: string) => {
        const auth = byId.get(endpoint)?.auth;
        expect(auth, endpoint).toBeDefined();
        return Boolean(auth && ('public' in auth || held(auth, scope, false)));
      };
      const c = await mcpConnect(minted.json.key);
      const listed = (await c.listTools().catch(() => ({ tools: [] }))).tools.map((t) => t.name).sort();
      expect(listed).toEqual(
        TOOLS.filter((t) => meets(t.endpoint))
          .map((t) => t.name)
          .sort(),
      );
      // Fixed resources only: the trace template also lists one resource per trace.
      const fixed = new Set(FIXED_RESOURCES.map((r) => r.uri));
      const resources = (await c.listResources().catch(() => ({ resources: [] }))).resources
        .map((r) => r.uri)
        .filter((u) => fixed.has(u))
        .sort();
      expect(resources).toEqual(
        FIXED_RESOURCES.filter((r) => meets(r.endpoint))
          .map((r) => r.uri)
          .sort(),
      );

      const before = storeFingerprint();
      for (const t of TOOLS.filter((t) => !listed.includes(t.name))) {
        const r = await callTool(c, t.name);
        expect(r.isError, `${t.name} with ${scope}: ${toolText(r).slice(0, 300)}`).toBe(true);
      }
      for (const r of FIXED_RESOURCES.filter((r) => !resources.includes(r.uri)))
        await expect(c.readResource({ uri: r.uri }), `${r.uri} with ${scope}`).rejects.toThrow();
      expect(storeFingerprint(), `a refused MCP call of ${scope} changed the store`).toBe(before);

      for (const name of listed) {
        const r = await callTool(c, name);
        if (r.isError) expect(toolText(r), `${name} with ${scope}`).not.toMatch(/"code":"(forbidden|unauthorized)"/);
      }
      for (const uri of resources) expect((await c.readResource({ uri })).contents.length, `${uri} with ${scope}`).toBeGreaterThan(0);
    },
  );
});
