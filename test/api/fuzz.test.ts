import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome, useDaemon } from '../helpers/daemon.js';
import { ics, startFeedServer } from '../helpers/feed-server.js';
import { Gen, type Schema } from '../helpers/fuzz-gen.js';

/**
 * Seeded fuzzing of every operation in /openapi.json, and of `/mcp`: random valid and hostile
 * bodies and queries (JSON-RPC messages and batches for `/mcp`), with and without keys. `url`
 * fields name a feed server of the test's own on loopback (a feed, garbage, a redirect loop, a
 * 404), so subscriptions and CalDAV accounts reach the network code, or addresses that must be
 * refused. Whatever comes in: no 5xx, every error in the envelope, a store that is
 * byte-identical after every refused request, and /health still answering.
 *
 * Replay a failure with the seed and count it prints:
 *   KAIROS_FUZZ_SEED=<seed> KAIROS_FUZZ_COUNT=<n> npx vitest run test/api/fuzz.test.ts
 */
const SEED = Number(process.env.KAIROS_FUZZ_SEED ?? 20261124);
const COUNT = Number(process.env.KAIROS_FUZZ_COUNT ?? 3000);
const REQUEST_TIMEOUT_MS = 20_000;
const MAX_FAILURES = 25;

interface Operation {
  method: string;
  path: string;
  query: { name: string; required: boolean; schema: Schema }[];
  body?: Schema;
  rawTypes: string[];
  /** The MCP endpoint, which /openapi.json does not list: JSON-RPC bodies, any of its methods. */
  mcp?: true;
}

/** How many entries of the operation list are `/mcp`: about as often as the sync routes together. */
const MCP_WEIGHT = 6;

const ICS_BODIES = [
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\nBEGIN:VEVENT\r\nUID:fz-1\r\nDTSTART:20261124T090000Z\r\nDURATION:PT1H\r\nSUMMARY:Fuzz\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:__proto__\r\nDTSTART:20261124T090000Z\r\nSUMMARY:x\r\nX-CONSTRUCTOR:y\r\nX-__PROTO__:z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART:20261124T090000Z\r\nRRULE:FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5\r\nSUMMARY:r\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:h\r\nDTSTART:20261124T090000Z\r\nRRULE:FREQ=HOURLY;BYMINUTE=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59;BYSECOND=0,10,20,30,40,50\r\nSUMMARY:h\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:broken\r\nDTSTART:2026-99-99\r\nEND:VCALENDAR\r\n',
  'not a calendar at all',
  'BEGIN:VCALENDAR\r\n' + 'BEGIN:VEVENT\r\n'.repeat(200),
];

function operations(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? [])
          .filter((p: Schema) => p.in === 'query')
          .map((p: Schema) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        body: content['application/json']?.schema,
        rawTypes: Object.keys(content).filter((t) => t !== 'application/json'),
      });
    }
  }
  return ops;
}

/**
 * The bytes of the store (db.json, journal segments, backups): what a refused request must not
 * touch. Not `search/`: the persisted search index is derived from accepted writes and saved in
 * the background on a timer, whenever the embedding of earlier writes lands.
 */
function storeFingerprint(home: string): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (dir !== home || e.name !== 'search') walk(p);
      } else if (!/^daemon\.(log|json|lock)$/.test(e.name)) h.update(`${p}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(home);
  return h.digest('hex');
}

const shorten = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** A JSON-RPC error answer of the MCP transport (a malformed message, an unknown session). */
const isJsonRpcError = (json: any) => json?.jsonrpc === '2.0' && typeof json.error?.code === 'number' && typeof json.error.message === 'string';

describe(`API fuzz (seed ${SEED}, ${COUNT} requests)`, () => {
  const d = useDaemon(() => {
    const home = tempHome();
    // No snapshot during the run: a refused request must leave every store file byte-identical.
    writeFileSync(join(home, 'config.json'), JSON.stringify({ snapshot: { every_ops: 1_000_000_000, every_ms: 2_000_000_000 } }));
    // The test's feed server is on loopback, which the outbound policy refuses unless allowed.
    return { home, env: { DEBUG: 'true', KAIROS_OUTBOUND_ALLOW: '127.0.0.1,localhost,::1' } };
  });
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  beforeAll(async () => {
    feeds = await startFeedServer();
    feeds.routes.set('/feed.ics', { body: ics([{ uid: 'fuzz-feed-1', summary: 'Fuzzed feed', start: '20261124T090000Z' }]) });
    feeds.routes.set('/garbage.ics', { body: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nope\r\n' });
    feeds.routes.set('/loop', { status: 302, headers: { location: '/loop' } });
    feeds.routes.set('/elsewhere', { status: 302, headers: { location: 'http://127.0.0.1:9/' } });
    feeds.routes.set('/dav/', { status: 207, body: '<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/dav/</href></response></multistatus>' });
  });
  afterAll(async () => {
    await feeds?.close();
  });

  it('answers every generated request without a 5xx, in the envelope, touching nothing when it refuses', async () => {
    const doc = (await d.api('GET', '/openapi.json')).json;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    for (let i = 0; i < MCP_WEIGHT; i++) ops.push({ method: 'POST', path: '/mcp', query: [], rawTypes: [], mcp: true });
    const creds = JSON.parse(readFileSync(join(d.home, 'credentials.json'), 'utf8'));
    const protectedIds = new Set<string>([creds.key_id, creds.user_id]);
    const urls = ['/feed.ics', '/garbage.ics', '/loop', '/elsewhere', '/dav/', '/missing.ics'].map((p) => feeds.base + p);
    const gen = new Gen(SEED, doc.components?.schemas ?? {}, urls);

    // A live MCP session of the owner's, whose id fuzzed requests often carry; its tools' schemas feed the generator.
    let live: { client: Client; transport: StreamableHTTPClientTransport };
    const openLive = async (tries = 2): Promise<void> => {
      const transport = new StreamableHTTPClientTransport(new URL(`${d.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${d.key}` } } });
      const client = new Client({ name: 'fuzz', version: '1' });
      try {
        await client.connect(transport);
      } catch (e) {
        // A POST on a pooled connection the server was just closing (keep-alive) is not retried by fetch.
        if (tries > 1) return openLive(tries - 1);
        throw e;
      }
      live = { client, transport };
    };
    await openLive();
    const tools = (await live!.client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema as Schema }));
    const resources = (await live!.client.listResources()).resources.map((r) => r.uri);

    // One key per scope, so requests also come from narrow keys.
    const scopes: string[] = doc.paths['/auth/keys'].post.requestBody.content['application/json'].schema.properties.scopes.items.enum;
    const narrow: string[] = [];
    for (const s of scopes) {
      const r = await d.api('POST', '/auth/keys', { body: { name: `fuzz ${s}`, scopes: [s] } });
      expect(r.status, r.text).toBe(201);
      narrow.push(r.json.key);
      protectedIds.add(r.json.id);
    }

    let before = storeFingerprint(d.home);
    const counts: Record<string, number> = {};
    // Failures are collected (up to a few) so one run shows distinct bugs; a hang ends the run at once.
    const failures: string[] = [];
    const logOf = (traceId: string | null) => {
      if (!traceId) return '';
      const lines = `${d.stdout()}\n${d.stderr()}\n${readFileSync(join(d.home, 'daemon.log'), 'utf8')}`.split('\n').filter((l) => l.includes(traceId));
      return lines.length ? `\n  log: ${shorten(lines.join('\n'), 1500)}` : '';
    };
    for (let i = 0; i < COUNT && failures.length < MAX_FAILURES; i++) {
      const op = gen.pick(ops);
      let method = op.method;
      const hostile = gen.chance(0.5);
      // Never aim at the owner's key or user by path: rotating the owner key would end the run, not find a bug.
      const pathIds = gen.seen.filter((x) => !protectedIds.has(x));
      const path = op.path.replace(/\{(\w+)\}/g, () =>
        encodeURIComponent(pathIds.length && gen.chance(0.7) ? gen.pick(pathIds) : gen.pick(['x', '__proto__', 'constructor', '..', 'key_', '%2e%2e', ' '])),
      );
      const params = new URLSearchParams();
      for (const q of op.query) {
        if (!q.required && !gen.chance(0.5)) continue;
        const v = hostile && gen.chance(0.4) ? gen.hostile(q.schema) : gen.valid(q.schema);
        params.append(q.name, typeof v === 'string' ? v : JSON.stringify(v));
      }
      if (hostile && gen.chance(0.2)) params.append(gen.pick(['__proto__', 'constructor', 'limit', 'user_id', 'x[y]']), gen.pick(['1', '-1', 'x', '']));
      const url = `${path}${params.size ? `?${params}` : ''}`;

      const headers: Record<string, string> = {};
      const who = gen.rand();
      let auth: string;
      if (who < 0.6) auth = 'owner';
      else if (who < 0.8) {
        auth = `narrow ${gen.int(0, narrow.length - 1)}`;
        headers.authorization = `Bearer ${narrow[Number(auth.split(' ')[1])]}`;
      } else if (who < 0.9) auth = 'none';
      else {
        auth = 'garbage';
        headers.authorization = gen.pick(['Bearer ', 'Bearer kairos_sk_nope', 'Basic dXNlcjpwYXNz', 'Bearer a.b.c', `Bearer ${'x'.repeat(5000)}`]);
      }
      if (gen.chance(0.05)) headers['x-agent-id'] = gen.pick(['agent-1', '__proto__', '']);
      if (gen.chance(0.05)) headers['x-user-id'] = gen.pick(['usr_nope', '__proto__', creds.user_id]);

      let body: string | undefined;
      let liveSid: string | undefined;
      if (op.mcp) {
        method = gen.chance(0.85) ? 'POST' : gen.pick(['GET', 'DELETE']);
        const sid = gen.rand();
        if (sid < 0.6) headers['mcp-session-id'] = liveSid = live!.transport.sessionId!;
        else if (sid < 0.8) headers['mcp-session-id'] = gen.pick(['nope', '', '__proto__', '00000000-0000-0000-0000-000000000000']);
        headers.accept = gen.chance(0.9) ? 'application/json, text/event-stream' : gen.pick(['application/json', 'text/event-stream', '*/*', 'text/html']);
        headers['content-type'] = gen.chance(0.95) ? 'application/json' : 'text/plain';
        body = gen.chance(0.95) ? JSON.stringify(gen.jsonRpc(tools, resources)) : gen.pick(['{"jsonrpc":', '[]', 'null', '[[[]]]', '']);
      } else if (op.body || op.rawTypes.length || (hostile && gen.chance(0.1))) {
        const mode = gen.rand();
        if (op.rawTypes.length && mode < 0.3) {
          body = gen.pick(ICS_BODIES);
          headers['content-type'] = op.rawTypes[0]!;
        } else if (mode < 0.9 || !hostile) {
          body = JSON.stringify(hostile && op.body ? gen.hostile(op.body) : op.body ? gen.valid(op.body) : { x: 1 });
          headers['content-type'] = 'application/json';
        } else {
          body = gen.pick(['{"a":', 'not json', '[]', 'null', '"x"', '{"__proto__": {"polluted": true}}', '']);
          headers['content-type'] = gen.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'text/calendar']);
        }
      }

      const replay = `seed ${SEED}, request #${i + 1} (KAIROS_FUZZ_SEED=${SEED} KAIROS_FUZZ_COUNT=${i + 1}): ${method} ${shorten(url, 300)} auth=${auth} headers=${JSON.stringify({ ...headers, authorization: undefined })} body=${shorten(body ?? '')}`;
      let res: Response;
      let text: string;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new Error('timed out')), REQUEST_TIMEOUT_MS);
      try {
        res = await fetch(d.base + url, {
          method,
          headers: auth === 'owner' ? { ...headers, authorization: `Bearer ${d.key}` } : headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : body,
          signal: abort.signal,
        });
        // An MCP session's SSE stream (GET) stays open: its headers are the answer.
        if (op.mcp && method === 'GET' && res.ok) {
          abort.abort();
          text = '';
        } else text = await res.text();
      } catch (e) {
        failures.push(`no answer within ${REQUEST_TIMEOUT_MS} ms (${(e as Error).message}) — ${replay}`);
        break;
      } finally {
        clearTimeout(timer);
      }
      // The live session was closed by a fuzzed DELETE (or ended with its credential): open another.
      if (liveSid && method === 'DELETE' && res.ok) {
        try {
          await openLive();
        } catch (e) {
          failures.push(`no new MCP session after a DELETE (${(e as Error).message}, ${String((e as Error).cause)}) — ${replay}`);
          break;
        }
      }
      counts[res.status] = (counts[res.status] ?? 0) + 1;
      if (res.status >= 500) failures.push(`5xx — ${replay} → ${res.status} ${shorten(text)}${logOf(res.headers.get('x-trace-id'))}`);
      const after = storeFingerprint(d.home);
      if (res.status >= 400) {
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const env = json?.error;
        const ok =
          (env &&
            /^[a-z][a-z0-9_]*$/.test(env.code) &&
            typeof env.message === 'string' &&
            env.message.length > 0 &&
            env.trace_id === res.headers.get('x-trace-id')) ||
          (op.mcp && isJsonRpcError(json));
        if (!ok) failures.push(`not the error envelope — ${replay} → ${res.status} ${shorten(text)}`);
        if (after !== before) failures.push(`a refused request changed the store — ${replay} → ${res.status} ${shorten(text)}`);
      } else if (res.headers.get('content-type')?.includes('json')) {
        try {
          gen.learn(JSON.parse(text), protectedIds);
        } catch {
          // A 2xx that is not JSON despite its type would fail elsewhere; here only ids are harvested.
        }
      }
      before = after;
      if (i % 50 === 49) {
        const h = await d.api('GET', '/health', { key: null });
        const probe = await d.api('GET', '/memory/pull?limit=1');
        if (h.status !== 200 || probe.status !== 200) {
          failures.push(`the daemon stopped answering (/health ${h.status}, /memory/pull ${probe.status} ${shorten(probe.text)}) after ${replay}`);
          break;
        }
      }
    }
    await live!.client.close().catch(() => {});
    expect(failures, `${failures.length} failure(s):\n\n${failures.join('\n\n')}`).toEqual([]);
    // Both kinds of answers happened: the run reached the services, not only the validators.
    const ok = Object.entries(counts)
      .filter(([s]) => Number(s) < 300)
      .reduce((n, [, c]) => n + c, 0);
    expect(ok, JSON.stringify(counts)).toBeGreaterThan(COUNT / 20);
    expect(COUNT - ok, JSON.stringify(counts)).toBeGreaterThan(COUNT / 5);
    // Subscriptions and CalDAV accounts reached the test's server, through the daemon's network code.
    if (COUNT >= 1000) expect(feeds.requests.length, 'requests that reached the feed server').toBeGreaterThan(0);
    process.stdout.write(`fuzz seed ${SEED}: ${COUNT} requests, statuses ${JSON.stringify(counts)}, ${feeds.requests.length} reached the feed server\n`);
  }, 600_000);
});
