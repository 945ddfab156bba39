import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltinSpace } from '../../../src/search/builtin-space.js';
import { VectorIndex } from '../../../src/search/indexes/vector-index.js';
import { BuiltinEmbedder } from '../../../src/search/models/builtin-embedder.js';
import type { ProviderSpace } from '../../../src/search/provider-space.js';
import { OpenAIEmbeddings } from '../../../src/search/providers/openai-embeddings.js';
import { SemanticSearch } from '../../../src/search/semantic-search.js';

/** A loopback OpenAI-compatible server whose behaviour each test sets. */
let server: Server;
let base: string;
let behave: (input: string[]) => { status: number; body: unknown; delayMs?: number };
const seen: unknown[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ url: req.url, auth: req.headers.authorization, body });
      const out = behave(body.input);
      setTimeout(() => {
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
      }, out.delayMs ?? 0);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const ok = (input: string[]) => ({
  status: 200,
  body: { object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: [t.length, 1, 0] })) },
});

describe('OpenAI-compatible embeddings client', () => {
  it('posts {model, input} to {base}/embeddings and returns unit vectors in input order', async () => {
    behave = (input) => {
      const r = ok(input);
      r.body.data.reverse(); // servers may answer out of order: `index` decides
      return r;
    };
    const c = new OpenAIEmbeddings({ baseUrl: `${base}/`, model: 'tiny', apiKey: 'sk-test' });
    const [a, b] = await c.embed(['abc', 'a']);
    expect(seen.at(-1)).toEqual({ url: '/v1/embeddings', auth: 'Bearer sk-test', body: { model: 'tiny', input: ['abc', 'a'] } });
    expect(a![0]).toBeCloseTo(3 / Math.hypot(3, 1), 5);
    expect(b![0]).toBeCloseTo(1 / Math.hypot(1, 1), 5);
  });

  it.each([
    ['an HTTP error', () => ({ status: 500, body: { error: 'model not loaded' } }), /answered 500: .*model not loaded/],
    ['not JSON', () => ({ status: 200, body: '<html>' }), /other than JSON/],
    ['too few embeddings', () => ({ status: 200, body: { data: [] } }), /one embedding per input/],
    ['a malformed embedding', () => ({ status: 200, body: { data: [{ index: 0, embedding: ['x'] }] } }), /malformed/],
    ['a timeout', (input: string[]) => ({ ...ok(input), delayMs: 1500 }), /no answer within 300 ms/],
  ])('turns %s into one clear error', async (what, b, message) => {
    behave = b as typeof behave;
    await expect(new OpenAIEmbeddings({ baseUrl: base, timeoutMs: what === 'a timeout' ? 300 : 10_000 }).embed(['x'])).rejects.toThrow(message);
  });

  it('says when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    await expect(new OpenAIEmbeddings({ baseUrl: `http://127.0.0.1:${port}/v1` }).embed(['x'])).rejects.toThrow(/unreachable: ECONNREFUSED/);
  });
});

describe('semantic search fallbacks', () => {
  const embedder = new BuiltinEmbedder({
    header: { format: 1, dims: 2, count: 2, source: 'tiny@1' },
    words: ['gym', 'wedding'],
    scales: Float32Array.from([1 / 127, 1 / 127]),
    values: Int8Array.from([127, 0, 0, 127]),
  });
  const builtinIndex = new VectorIndex(2);
  builtinIndex.upsert('t-gym', 'u', embedder.embed('gym'));
  builtinIndex.upsert('t-wed', 'u', embedder.embed('wedding'));
  const readyBuiltin = {
    current: { index: builtinIndex, embedder },
    name: 'tiny@1',
    settle: () => false,
    // Queries are embedded on the space's thread in a daemon; here on this one.
    embedQuery: async (_: unknown, q: string) => embedder.embed(q),
    model: { ready: Promise.resolve(embedder) },
  } as unknown as BuiltinSpace;

  it('answers from the provider when it works', async () => {
    const idx = new VectorIndex(2);
    idx.upsert('t-wed', 'u', Float32Array.from([1, 0]));
    const provider = { name: 'nomic', prepare: async () => ({ index: idx, vector: Float32Array.from([1, 0]) }) } as unknown as ProviderSpace;
    const r = await new SemanticSearch(readyBuiltin, provider).search('u', 'gym', 10, () => true);
    expect(r).toMatchObject({ available: true, info: { provider: 'openai', model: 'nomic' } });
    expect(r.available && r.hits.map((h) => h.uid)).toEqual(['t-wed']);
  });

  it('falls back to the built-in model when the provider fails, and says why', async () => {
    const provider = {
      name: 'nomic',
      prepare: async () => {
        throw new Error('embeddings provider http://x/v1/embeddings answered 500');
      },
    } as unknown as ProviderSpace;
    const r = await new SemanticSearch(readyBuiltin, provider).search('u', 'gym', 10, () => true);
    expect(r).toMatchObject({
      available: true,
      info: { provider: 'builtin', model: 'tiny@1', fallback_reason: 'embeddings provider http://x/v1/embeddings answered 500' },
    });
    expect(r.available && r.hits[0]!.uid).toBe('t-gym');
  });

  it('reports semantic search unavailable while the built-in model is being prepared', async () => {
    const preparing = { current: undefined, name: 'tiny@1', settle: () => false, model: { ready: new Promise(() => {}) } } as unknown as BuiltinSpace;
    const t = performance.now();
    const r = await new SemanticSearch(preparing).search('u', 'gym', 10, () => true);
    expect(performance.now() - t).toBeLessThan(5000);
    expect(r).toMatchObject({ available: false, reason: expect.stringMatching(/being prepared/) });
  });

  it('reports a broken built-in model with its reason', async () => {
    const broken = {
      current: undefined,
      name: 'tiny@1',
      settle: () => false,
      model: { error: 'Cannot find package', ready: Promise.resolve(undefined) },
    } as unknown as BuiltinSpace;
    expect(await new SemanticSearch(broken).search('u', 'gym', 10, () => true)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/unavailable: Cannot find package/),
    });
  });

  it('answers no hits for a query without a known word', async () => {
    expect(await new SemanticSearch(readyBuiltin).search('u', 'zzz', 10, () => true)).toMatchObject({ available: true, hits: [] });
  });
});
