import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome, useDaemon } from '../helpers/daemon.js';
import { Gen, type Schema } from '../helpers/fuzz-gen.js';

/**
 * Seeded fuzzing of every operation in /openapi.json: random valid and hostile bodies and queries,
 * with and without keys. Whatever comes in: no 5xx, every error in the envelope, a store that is
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
}

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

describe(`API fuzz (seed ${SEED}, ${COUNT} requests)`, () => {
  const d = useDaemon(() => {
    const home = tempHome();
    // No snapshot during the run: a refused request must leave every store file byte-identical.
    writeFileSync(join(home, 'config.json'), JSON.stringify({ snapshot: { every_ops: 1_000_000_000, every_ms: 2_000_000_000 } }));
    return { home, env: { DEBUG: 'true' } };
  });

  it('answers every generated request without a 5xx, in the envelope, touching nothing when it refuses', async () => {
    const doc = (await d.api('GET', '/openapi.json')).json;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    const creds = JSON.parse(readFileSync(join(d.home, 'credentials.json'), 'utf8'));
    const protectedIds = new Set<string>([creds.key_id, creds.user_id]);
    const gen = new Gen(SEED, doc.components?.schemas ?? {});

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
      if (op.body || op.rawTypes.length || (hostile && gen.chance(0.1))) {
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

      const replay = `seed ${SEED}, request #${i + 1} (KAIROS_FUZZ_SEED=${SEED} KAIROS_FUZZ_COUNT=${i + 1}): ${op.method} ${shorten(url, 300)} auth=${auth} headers=${JSON.stringify({ ...headers, authorization: undefined })} body=${shorten(body ?? '')}`;
      let res: Response;
      try {
        res = await fetch(d.base + url, {
          method: op.method,
          headers: auth === 'owner' ? { ...headers, authorization: `Bearer ${d.key}` } : headers,
          body: op.method === 'GET' || op.method === 'HEAD' ? undefined : body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (e) {
        failures.push(`no answer within ${REQUEST_TIMEOUT_MS} ms (${(e as Error).message}) — ${replay}`);
        break;
      }
      const text = await res.text();
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
          env &&
          /^[a-z][a-z0-9_]*$/.test(env.code) &&
          typeof env.message === 'string' &&
          env.message.length > 0 &&
          env.trace_id === res.headers.get('x-trace-id');
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
    expect(failures, `${failures.length} failure(s):\n\n${failures.join('\n\n')}`).toEqual([]);
    // Both kinds of answers happened: the run reached the services, not only the validators.
    const ok = Object.entries(counts)
      .filter(([s]) => Number(s) < 300)
      .reduce((n, [, c]) => n + c, 0);
    expect(ok, JSON.stringify(counts)).toBeGreaterThan(COUNT / 20);
    expect(COUNT - ok, JSON.stringify(counts)).toBeGreaterThan(COUNT / 5);
    process.stdout.write(`fuzz seed ${SEED}: ${COUNT} requests, statuses ${JSON.stringify(counts)}\n`);
  }, 600_000);
});
