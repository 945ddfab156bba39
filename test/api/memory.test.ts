import jsonpatch from 'fast-json-patch';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';

const d = useDaemon();

const trace = (task: string, extra: Record<string, unknown> = {}) => ({
  type: 'observation',
  task_id: task,
  timestamp: '2031-02-03T09:00:00Z',
  content: `a note for ${task}`,
  ...extra,
});

async function push(traces: unknown[], key?: string) {
  const r = await d.api('POST', '/memory/push', { body: { traces }, key });
  expect(r.status, r.text).toBe(201);
  return r.json.saved as { uid: string; timestamp: string }[];
}

async function pull(query: Record<string, string | number>, key?: string) {
  const r = await d.api('GET', '/memory/pull?' + new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])), { key });
  expect(r.status, r.text).toBe(200);
  return r.json as { traces: any[]; next_cursor: string | null };
}

const edit = (body: Record<string, unknown>, key?: string) => d.api('PATCH', '/memory/edit', { body, key });

async function mint(scopes: string[], agent_id?: string) {
  const r = await d.api('POST', '/auth/keys', { body: { name: `k-${scopes.join('-')}-${agent_id ?? ''}`, scopes, agent_id } });
  expect(r.status, r.text).toBe(201);
  return r.json.key as string;
}

describe('POST /memory/push', () => {
  it('saves a batch: 201, client uids kept, tr_ ids made, every field stored', async () => {
    const saved = await push([
      trace('push-1', {
        uid: 'push-client-1',
        type: 'goal',
        importance: 5,
        tempo_tag: '@Deep-Work',
        notes: 'n',
        feedback_rating: 4,
        chat_url: 'https://chat.example/c/1',
        fields: { a: 1 },
      }),
      trace('push-1', { timestamp: '2031-02-03T10:00:00+02:00', valid_until: '2099-01-01T00:00:00Z' }),
    ]);
    expect(saved.map((s) => s.uid)[0]).toBe('push-client-1');
    expect(saved[1]!.uid).toMatch(/^tr_[0-9a-z]{26}$/);
    expect(saved[1]!.timestamp).toBe('2031-02-03T08:00:00.000Z');
    const { traces } = await pull({ task_id: 'push-1' });
    const t = traces.find((x) => x.uid === 'push-client-1');
    expect(t).toMatchObject({
      user_id: d.userId,
      type: 'goal',
      importance: 5,
      tempo_tag: '@deep-work',
      version: 1,
      notes: 'n',
      feedback_rating: 4,
      chat_url: 'https://chat.example/c/1',
      fields: { a: 1 },
      authored_by: d.userId,
      linked_trace_ids: [],
      child_trace_ids: [],
    });
    expect(t.created_at).toBe(t.updated_at);
    expect(traces.find((x) => x.uid !== 'push-client-1')).toMatchObject({ importance: 3, valid_until: '2099-01-01T00:00:00.000Z' });
  });

  it('is all or nothing: one bad trace → 422 naming its index, nothing saved', async () => {
    const r = await d.api('POST', '/memory/push', { body: { traces: [trace('aon'), trace('aon'), trace('aon', { importance: 9 }), trace('aon')] } });
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details.map((x: any) => x.path)).toContain('traces.2.importance');
    expect((await pull({ task_id: 'aon' })).traces).toEqual([]);
  });

  it('a link to a missing trace refuses the batch (422 naming the index), nothing saved', async () => {
    const r = await d.api('POST', '/memory/push', { body: { traces: [trace('links'), trace('links', { linked_trace_ids: ['no-such-trace'] })] } });
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details[0].path).toBe('traces.1.linked_trace_ids.0');
    expect((await pull({ task_id: 'links' })).traces).toEqual([]);
  });

  it('links within the batch and to existing traces are accepted', async () => {
    const [a] = await push([trace('links2', { uid: 'links2-a' })]);
    const saved = await push([
      trace('links2', { uid: 'links2-b', linked_trace_ids: [a!.uid] }),
      trace('links2', { linked_trace_ids: ['links2-b'], child_trace_ids: [a!.uid] }),
    ]);
    expect(saved).toHaveLength(2);
  });

  it('an existing uid → 409 conflict, and a uid twice in one batch → 409, nothing saved', async () => {
    await push([trace('dup', { uid: 'dup-1' })]);
    expectError(await d.api('POST', '/memory/push', { body: { traces: [trace('dup', { uid: 'dup-2' }), trace('dup', { uid: 'dup-1' })] } }), 409, 'conflict');
    expectError(await d.api('POST', '/memory/push', { body: { traces: [trace('dup', { uid: 'dup-3' }), trace('dup', { uid: 'dup-3' })] } }), 409, 'conflict');
    expect((await pull({ task_id: 'dup' })).traces.map((t) => t.uid)).toEqual(['dup-1']);
  });

  it.each([
    ['traces not an array', { traces: 'nope' }, 'validation_failed'],
    ['an empty batch', { traces: [] }, 'validation_failed'],
    ['an unknown type', { traces: [trace('bad', { type: 'dream' })] }, 'validation_failed'],
    ['a transition pushed by a client', { traces: [trace('bad', { type: 'transition' })] }, 'validation_failed'],
    ['importance 0', { traces: [trace('bad', { importance: 0 })] }, 'validation_failed'],
    ['importance 2.5', { traces: [trace('bad', { importance: 2.5 })] }, 'validation_failed'],
    ['feedback_rating 6', { traces: [trace('bad', { feedback_rating: 6 })] }, 'validation_failed'],
    ['a timestamp without offset', { traces: [trace('bad', { timestamp: '2031-02-03T09:00:00' })] }, 'validation_failed'],
    ['a missing content', { traces: [{ type: 'goal', task_id: 'bad' }] }, 'validation_failed'],
    ['an unknown field', { traces: [trace('bad', { mood: 'happy' })] }, 'validation_failed'],
    ['a server-kept field (version)', { traces: [trace('bad', { version: 4 })] }, 'validation_failed'],
    ['linked_trace_ids not an array', { traces: [trace('bad', { linked_trace_ids: 'x' })] }, 'validation_failed'],
    ['a malformed tempo tag', { traces: [trace('bad', { tempo_tag: 'Morning!!' })] }, 'invalid_tempo_tag'],
  ])('%s → 422 %s', async (_what, body, code) => {
    expectError(await d.api('POST', '/memory/push', { body }), 422, code);
  });

  it('pushes 1,000 traces in one batch', async () => {
    const traces = Array.from({ length: 1000 }, (_, i) =>
      trace('bulk', { timestamp: new Date(Date.UTC(2031, 0, 1) + (i % 250) * 60_000).toISOString(), content: `bulk note number ${i}` }),
    );
    const saved = await push(traces);
    expect(saved).toHaveLength(1000);
    expect(new Set(saved.map((s) => s.uid)).size).toBe(1000);
    const all = await pull({ task_id: 'bulk', limit: 1000 });
    expect(all.traces).toHaveLength(1000);
    expect(all.next_cursor).toBeNull();
  });

  it('an agent key authors its traces, whatever the client claims', async () => {
    const key = await mint(['memory:read', 'memory:write'], 'scribe-bot');
    const [s] = await push([trace('agent', { authored_by: 'someone-else' })], key);
    const { traces } = await pull({ task_id: 'agent' });
    expect(traces[0]).toMatchObject({ uid: s!.uid, authored_by: 'scribe-bot' });
    const e = await edit({ uid: s!.uid, updates: { content: 'by the bot' } }, key);
    expect(e.status, e.text).toBe(200);
    const h = await d.api('GET', `/memory/history?uid=${s!.uid}`);
    expect(h.json.versions.map((v: any) => v.actor)).toEqual(['scribe-bot', 'scribe-bot']);
  });
});

describe('GET /memory/pull', () => {
  beforeAll(async () => {
    await push([
      trace('pull', { uid: 'p-c', timestamp: '2031-03-01T10:00:00Z', type: 'goal', tempo_tag: '25m' }),
      trace('pull', { uid: 'p-a', timestamp: '2031-03-01T10:00:00Z', tempo_tag: '@morning' }),
      trace('pull', { uid: 'p-b', timestamp: '2031-03-01T09:00:00Z', type: 'reflection' }),
      trace('pull', { uid: 'p-d', timestamp: '2031-03-02T00:00:00Z', tempo_tag: '@morning' }),
      trace('pull', { uid: 'p-old', timestamp: '2031-03-01T08:00:00Z', valid_until: '2020-01-01T00:00:00Z' }),
    ]);
  });

  it('orders by timestamp then uid', async () => {
    expect((await pull({ task_id: 'pull' })).traces.map((t) => t.uid)).toEqual(['p-b', 'p-a', 'p-c', 'p-d']);
  });

  it('filters by type and tempo tag (normalized)', async () => {
    expect((await pull({ task_id: 'pull', type: 'goal' })).traces.map((t) => t.uid)).toEqual(['p-c']);
    expect((await pull({ task_id: 'pull', tempo_tag: '@MORNING' })).traces.map((t) => t.uid)).toEqual(['p-a', 'p-d']);
  });

  it('takes an inclusive time range (with offsets)', async () => {
    const r = await pull({ task_id: 'pull', start_time: '2031-03-01T11:00:00+02:00', end_time: '2031-03-01T10:00:00Z' });
    expect(r.traces.map((t) => t.uid)).toEqual(['p-b', 'p-a', 'p-c']);
    expect((await pull({ task_id: 'pull', start_time: '2031-03-02T00:00:00Z' })).traces.map((t) => t.uid)).toEqual(['p-d']);
  });

  it('hides expired traces unless include_expired=true', async () => {
    expect((await pull({ task_id: 'pull' })).traces.some((t) => t.uid === 'p-old')).toBe(false);
    expect((await pull({ task_id: 'pull', include_expired: 'true' })).traces[0].uid).toBe('p-old');
  });

  it('pages with an opaque cursor: every trace once, in order', async () => {
    const first = await pull({ task_id: 'pull', limit: 3 });
    expect(first.traces.map((t) => t.uid)).toEqual(['p-b', 'p-a', 'p-c']);
    expect(typeof first.next_cursor).toBe('string');
    const second = await pull({ task_id: 'pull', limit: 3, cursor: first.next_cursor! });
    expect(second.traces.map((t) => t.uid)).toEqual(['p-d']);
    expect(second.next_cursor).toBeNull();
  });

  it('pages through 1,000 traces without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { traces: any[]; next_cursor: string | null } = await pull({ task_id: 'bulk', limit: 300, ...(cursor ? { cursor } : {}) });
      seen.push(...page.traces.map((t) => `${t.timestamp}|${t.uid}`));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect([...seen].sort()).toEqual(seen);
  });

  it('limit defaults to 100', async () => {
    const r = await pull({ task_id: 'bulk' });
    expect(r.traces).toHaveLength(100);
    expect(r.next_cursor).toBeTruthy();
  });

  it.each([
    ['limit=0', { limit: '0' }],
    ['limit=1001', { limit: '1001' }],
    ['a bad cursor', { cursor: 'not-a-cursor' }],
    ['an unknown type', { type: 'dream' }],
    ['a bad start_time', { start_time: 'yesterday' }],
    ['an unknown parameter', { colour: 'blue' }],
  ])('%s → 422', async (_what, q) => {
    expectError(await d.api('GET', '/memory/pull?' + new URLSearchParams(q)), 422, 'validation_failed');
  });

  it('user_id defaults to the caller and may name the caller', async () => {
    expect((await pull({ task_id: 'pull', user_id: d.userId })).traces).toHaveLength(4);
  });
});

describe('PATCH /memory/edit and GET /memory/history', () => {
  it('increments the version; null clears an optional field', async () => {
    await push([trace('edit', { uid: 'e-1', tempo_tag: '@morning', notes: 'first' })]);
    const r = await edit({ uid: 'e-1', updates: { content: 'changed', tempo_tag: null, importance: 4 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ uid: 'e-1', version: 2, content: 'changed', importance: 4, notes: 'first' });
    expect('tempo_tag' in r.json).toBe(false);
    expect(r.json.updated_at > r.json.created_at).toBe(true);
  });

  it.each(['uid', 'user_id', 'version', 'created_at', 'updated_at', 'authored_by'])('%s is not editable → 422', async (field) => {
    await push([trace('ro', { uid: `ro-${field}` })]);
    const r = await edit({ uid: `ro-${field}`, updates: { [field]: 'x' } });
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details[0].path).toBe(`updates.${field}`);
    expect((await pull({ task_id: 'ro' })).traces.find((t) => t.uid === `ro-${field}`).version).toBe(1);
  });

  it.each([
    ['empty updates', {}],
    ['importance 7', { importance: 7 }],
    ['type transition', { type: 'transition' }],
    ['null content', { content: null }],
    ['an unknown field', { mood: 'x' }],
  ])('%s → 422', async (_what, updates) => {
    await push([trace('bad-edit', { uid: `be-${_what}` })]);
    expectError(await edit({ uid: `be-${_what}`, updates }), 422, 'validation_failed');
  });

  it('a bad tempo tag → 422 invalid_tempo_tag; a link to a missing trace → 422', async () => {
    await push([trace('edit2', { uid: 'e-2' })]);
    expectError(await edit({ uid: 'e-2', updates: { tempo_tag: 'soon!' } }), 422, 'invalid_tempo_tag');
    const r = await edit({ uid: 'e-2', updates: { linked_trace_ids: ['ghost'] } });
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details[0].path).toBe('updates.linked_trace_ids.0');
    expectError(await edit({ uid: 'e-2', updates: { linked_trace_ids: ['e-2'] } }), 422, 'validation_failed');
  });

  it('unknown uid → 404', async () => {
    expectError(await edit({ uid: 'never-pushed', updates: { content: 'x' } }), 404, 'not_found');
    expectError(await d.api('GET', '/memory/history?uid=never-pushed'), 404, 'not_found');
  });

  it('a stale expected_version → 409 version_conflict, nothing changed', async () => {
    await push([trace('ev', { uid: 'ev-1' })]);
    expect((await edit({ uid: 'ev-1', updates: { content: 'v2' }, expected_version: 1 })).status).toBe(200);
    expectError(await edit({ uid: 'ev-1', updates: { content: 'lost?' }, expected_version: 1 }), 409, 'version_conflict');
    const t = (await pull({ task_id: 'ev' })).traces[0];
    expect(t).toMatchObject({ version: 2, content: 'v2' });
  });

  it('two clients editing at once with expected_version: one wins, one gets 409, no lost update', async () => {
    const [alice, bob] = [await mint(['memory:read', 'memory:write'], 'alice'), await mint(['memory:read', 'memory:write'], 'bob')];
    for (let round = 0; round < 5; round++) {
      const uid = `race-${round}`;
      await push([trace('race', { uid })]);
      const [a, b] = await Promise.all([
        edit({ uid, updates: { content: 'alice was here' }, expected_version: 1 }, alice),
        edit({ uid, updates: { content: 'bob was here' }, expected_version: 1 }, bob),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(loser.json.error.code).toBe('version_conflict');
      const winner = a.status === 200 ? 'alice' : 'bob';
      const now = (await pull({ task_id: 'race' })).traces.find((t) => t.uid === uid);
      expect(now).toMatchObject({ version: 2, content: `${winner} was here` });
      const h = await d.api('GET', `/memory/history?uid=${uid}`);
      expect(h.json.versions.map((v: any) => v.actor)).toEqual([d.userId, winner]);
    }
  });

  it('history: every version with its actor and RFC 6902 patch; replaying the patches rebuilds every version', async () => {
    await push([trace('hist', { uid: 'h-1', tempo_tag: '@morning', linked_trace_ids: [] })]);
    await push([trace('hist', { uid: 'h-2' })]);
    const steps = [
      { content: 'second' },
      { tempo_tag: null, notes: 'a note' },
      { linked_trace_ids: ['h-2'], importance: 5, fields: { mood: 'ok', n: [1, 2] } },
      { timestamp: '2031-02-04T00:00:00+01:00', feedback_rating: 2 },
    ];
    const snapshots: any[] = [(await pull({ task_id: 'hist' })).traces.find((t) => t.uid === 'h-1')];
    for (const updates of steps) {
      const r = await edit({ uid: 'h-1', updates });
      expect(r.status, r.text).toBe(200);
      snapshots.push(r.json);
    }
    const h = await d.api('GET', '/memory/history?uid=h-1');
    expect(h.status, h.text).toBe(200);
    expect(h.json.uid).toBe('h-1');
    const versions = h.json.versions as { version: number; timestamp: string; actor: string; patch: any[] }[];
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5]);
    expect(versions[0]!.patch).toEqual([{ op: 'add', path: '', value: snapshots[0] }]);
    expect(versions[1]!.patch).toContainEqual({ op: 'replace', path: '/content', value: 'second' });
    expect(versions[2]!.patch).toContainEqual({ op: 'remove', path: '/tempo_tag' });
    let doc: any = {};
    versions.forEach((v, i) => {
      expect(jsonpatch.validate(v.patch, doc)).toBeUndefined();
      doc = jsonpatch.applyPatch(doc, v.patch, true, false).newDocument;
      expect(doc).toEqual(snapshots[i]);
      expect(v.timestamp).toBe(snapshots[i].updated_at);
      expect(v.actor).toBe(d.userId);
    });
    expect(doc).toEqual((await pull({ task_id: 'hist' })).traces.find((t) => t.uid === 'h-1'));
  });
});

describe('POST /memory/search', () => {
  beforeAll(async () => {
    await push([
      trace('search', { uid: 's-meet', content: 'Weekly planning meeting with the design team', tempo_tag: '@morning' }),
      trace('search', { uid: 's-dent', content: 'Dentist appointment on Tuesday afternoon', type: 'goal' }),
      trace('search-2', { uid: 's-run', content: 'Training for the spring marathon: long runs on Sundays' }),
      trace('search', { uid: 's-exp', content: 'Expired dentist reminder', valid_until: '2020-01-01T00:00:00Z' }),
    ]);
  });
  // These check the keyword engine (stems, prefixes, typos, filters); hybrid and semantic have
  // their own tests in test/api/search.test.ts.
  const search = async (body: Record<string, unknown>) => {
    const r = await d.api('POST', '/memory/search', { body: { mode: 'keyword', ...body } });
    expect(r.status, r.text).toBe(200);
    return r.json as { results: any[]; mode: string; mode_used: string };
  };

  it.each([
    ['stemmed words', 'meetings planned', 's-meet'],
    ['a prefix', 'dentis', 's-dent'],
    ['a typo', 'marathn', 's-run'],
    ['another inflection', 'running', 's-run'],
  ])('finds %s', async (_what, query, uid) => {
    const r = await search({ query });
    expect(r.results[0]?.uid, JSON.stringify(r)).toBe(uid);
  });

  it('scores are in [0,1], best first, with the summary fields', async () => {
    const r = await search({ query: 'dentist meeting marathon' });
    expect(r.results.length).toBeGreaterThanOrEqual(3);
    for (const [i, x] of r.results.entries()) {
      expect(x.score).toBeGreaterThanOrEqual(0);
      expect(x.score).toBeLessThanOrEqual(1);
      if (i) expect(r.results[i - 1].score).toBeGreaterThanOrEqual(x.score);
      for (const f of ['uid', 'type', 'task_id', 'timestamp', 'summary']) expect(x).toHaveProperty(f);
    }
    expect(r.results[0].score).toBe(1);
    expect(r.mode_used).toBe('keyword');
  });

  it('filters by type, tempo tag and task; hides expired traces unless asked', async () => {
    expect((await search({ query: 'dentist meeting marathon', type: 'goal' })).results.map((x) => x.uid)).toEqual(['s-dent']);
    expect((await search({ query: 'dentist meeting marathon', tempo_tag: '@Morning' })).results.map((x) => x.uid)).toEqual(['s-meet']);
    expect((await search({ query: 'dentist meeting marathon', task_id: 'search-2' })).results.map((x) => x.uid)).toEqual(['s-run']);
    expect((await search({ query: 'expired' })).results).toEqual([]);
    expect((await search({ query: 'expired', include_expired: true })).results.map((x) => x.uid)).toEqual(['s-exp']);
  });

  it('semantic and hybrid find the trace too and say which engine answered', async () => {
    for (const mode of ['semantic', 'hybrid']) {
      const r = await search({ query: 'dentist', mode });
      expect(r.mode).toBe(mode);
      // Until the built-in vectors are ready (first start), the keyword engine answers.
      expect([mode, 'keyword']).toContain(r.mode_used);
      expect(r.results[0].uid, JSON.stringify(r.results.slice(0, 4))).toBe('s-dent');
    }
  });

  it('follows every write at once: new, edited and replaced words', async () => {
    await push([trace('search-live', { uid: 's-live', content: 'Buy zucchini seeds' })]);
    expect((await search({ query: 'zucchini' })).results.map((x) => x.uid)).toEqual(['s-live']);
    await edit({ uid: 's-live', updates: { content: 'Buy pumpkin seeds' } });
    expect((await search({ query: 'zucchini' })).results).toEqual([]);
    expect((await search({ query: 'pumpkin' })).results.map((x) => x.uid)).toEqual(['s-live']);
  });

  it.each([
    ['an empty query', { query: '  ' }],
    ['an unknown mode', { query: 'x', mode: 'psychic' }],
    ['limit 0', { query: 'x', limit: 0 }],
  ])('%s → 422', async (_what, body) => {
    expectError(await d.api('POST', '/memory/search', { body }), 422, 'validation_failed');
  });
});

describe('POST /chat/trace-summary', () => {
  const long = 'Reviewed the quarterly roadmap with the team and agreed to move the launch by two weeks. '.repeat(8);
  beforeAll(async () => {
    await push([
      trace('sum', { uid: 'sum-1', content: 'Short   note\nabout   lunch', tempo_tag: '@noon' }),
      trace('sum', { uid: 'sum-2', content: long, importance: 5 }),
      trace('sum', { uid: 'sum-3', content: 'Third trace about the gym session' }),
    ]);
  });

  it('summarizes in the order given, compressed, with o200k token counts', async () => {
    const r = await d.api('POST', '/chat/trace-summary', { body: { trace_ids: ['sum-2', 'sum-1'] } });
    expect(r.status, r.text).toBe(200);
    const [a, b] = r.json.summaries;
    expect(a).toMatchObject({ uid: 'sum-2', type: 'observation', task_id: 'sum', timestamp: '2031-02-03T09:00:00.000Z' });
    expect(a.summary.length).toBeLessThan(long.length);
    expect(a.summary.endsWith('…')).toBe(true);
    expect(b.summary).toBe('[@noon] Short note about lunch');
    for (const s of r.json.summaries) expect(s.tokens).toBe(countTokens(s.summary));
    expect(r.json.token_count).toBe(a.tokens + b.tokens);
    expect(r.json.truncated).toBe(false);
  });

  it('honours max_token_count', async () => {
    const full = (await d.api('POST', '/chat/trace-summary', { body: { trace_ids: ['sum-1', 'sum-2', 'sum-3'] } })).json;
    for (const max of [5, 12, 30, full.token_count - 1, full.token_count]) {
      const r = await d.api('POST', '/chat/trace-summary', { body: { trace_ids: ['sum-1', 'sum-2', 'sum-3'], max_token_count: max } });
      expect(r.status, r.text).toBe(200);
      const sum = r.json.summaries.reduce((n: number, s: any) => n + countTokens(s.summary), 0);
      expect(sum).toBeLessThanOrEqual(max);
      expect(r.json.token_count).toBe(sum);
      expect(r.json.truncated).toBe(max < full.token_count);
    }
  });

  it('an unknown id → 404; bad bodies → 422', async () => {
    expectError(await d.api('POST', '/chat/trace-summary', { body: { trace_ids: ['sum-1', 'ghost'] } }), 404, 'not_found');
    expectError(await d.api('POST', '/chat/trace-summary', { body: { trace_ids: [] } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/trace-summary', { body: { trace_ids: ['sum-1'], max_token_count: 0 } }), 422, 'validation_failed');
  });
});

describe('isolation and scopes', () => {
  let other: string;
  beforeAll(async () => {
    await push([trace('secret', { uid: 'secret-1', content: 'owner private diary entry' })]);
    const reg = await d.api('POST', '/user/register', { body: { email: 'eve@example.com', password: 'correct horse', display_name: 'eve' } });
    expect(reg.status, reg.text).toBe(201);
    const login = await d.api('POST', '/user/login', { key: null, body: { email: 'eve@example.com', password: 'correct horse' } });
    other = login.json.token;
  });

  it("another user's key sees none of it", async () => {
    expect((await pull({}, other)).traces).toEqual([]);
    expect((await pull({ task_id: 'secret' }, other)).traces).toEqual([]);
    const s = await d.api('POST', '/memory/search', { key: other, body: { query: 'diary' } });
    expect(s.json.results).toEqual([]);
    expectError(await d.api('GET', `/memory/pull?user_id=${d.userId}`, { key: other }), 403, 'forbidden');
    expectError(await d.api('GET', '/memory/history?uid=secret-1', { key: other }), 403, 'forbidden');
    expectError(await edit({ uid: 'secret-1', updates: { content: 'pwned' } }, other), 403, 'forbidden');
    expectError(await d.api('POST', '/chat/trace-summary', { key: other, body: { trace_ids: ['secret-1'] } }), 403, 'forbidden');
    const link = await d.api('POST', '/memory/push', { key: other, body: { traces: [trace('mine', { linked_trace_ids: ['secret-1'] })] } });
    expectError(link, 422, 'validation_failed');
    expect((await pull({ task_id: 'secret' })).traces[0]).toMatchObject({ version: 1, content: 'owner private diary entry' });
  });

  it("the other user's own traces stay theirs", async () => {
    const r = await d.api('POST', '/memory/push', { key: other, body: { traces: [trace('eve-task', { content: 'eve diary' })] } });
    expect(r.status, r.text).toBe(201);
    expect((await pull({}, other)).traces.map((t) => t.content)).toEqual(['eve diary']);
    expect((await pull({ task_id: 'eve-task' })).traces).toEqual([]);
  });

  it('memory:read cannot write; a key without memory:read cannot read', async () => {
    const reader = await mint(['memory:read']);
    expectError(await d.api('POST', '/memory/push', { key: reader, body: { traces: [trace('x')] } }), 403, 'forbidden');
    expectError(await edit({ uid: 'secret-1', updates: { content: 'x' } }, reader), 403, 'forbidden');
    expect((await d.api('GET', '/memory/history?uid=secret-1', { key: reader })).status).toBe(200);
    const writer = await mint(['calendar:read']);
    expectError(await d.api('GET', '/memory/pull', { key: writer }), 403, 'forbidden');
    expectError(await d.api('POST', '/memory/search', { key: writer, body: { query: 'x' } }), 403, 'forbidden');
    expectError(await d.api('POST', '/chat/trace-summary', { key: writer, body: { trace_ids: ['secret-1'] } }), 403, 'forbidden');
  });

  it('no key → 401', async () => {
    expectError(await d.api('POST', '/memory/push', { key: null, body: { traces: [trace('x')] } }), 401, 'unauthorized');
  });
});

describe('system', () => {
  it('/debug/trace-dump answers 404 without DEBUG=true', async () => {
    expectError(await d.api('POST', '/debug/trace-dump', { body: { trace_uid: 'secret-1' } }), 404, 'not_found');
  });

  it('the OpenAPI document lists the memory endpoints with their schemas', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).json;
    for (const [m, p] of [
      ['post', '/memory/push'],
      ['get', '/memory/pull'],
      ['patch', '/memory/edit'],
      ['get', '/memory/history'],
      ['post', '/memory/search'],
      ['post', '/chat/trace-summary'],
      ['post', '/debug/trace-dump'],
    ] as const) {
      const op = doc.paths[p]?.[m];
      expect(op, `${m} ${p}`).toBeTruthy();
      expect(op.responses).toHaveProperty(p === '/memory/push' ? '201' : '200');
    }
    expect(doc.paths['/debug/trace-dump'].post.description).toMatch(/DEBUG=true/);
    expect(doc.paths['/memory/pull'].get.parameters.map((x: any) => x.name)).toEqual(
      expect.arrayContaining(['user_id', 'task_id', 'tempo_tag', 'type', 'start_time', 'end_time', 'limit', 'cursor']),
    );
  });

  it('acknowledged traces survive a SIGKILL', async () => {
    await push([trace('durable', { uid: 'durable-1' })]);
    await edit({ uid: 'durable-1', updates: { content: 'edited before the crash' } });
    await d.restart('SIGKILL');
    const t = (await pull({ task_id: 'durable' })).traces[0];
    expect(t).toMatchObject({ uid: 'durable-1', version: 2, content: 'edited before the crash' });
    expect((await d.api('GET', '/memory/history?uid=durable-1')).json.versions).toHaveLength(2);
    const s = await d.api('POST', '/memory/search', { body: { query: 'crash' } });
    expect(s.json.results.map((x: any) => x.uid)).toEqual(['durable-1']);
  });
});

describe('live events', () => {
  it('a push and an edit reach the owner over /ws as trace.created and trace.updated', async () => {
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${d.port}/ws`, { headers: { authorization: `Bearer ${d.key}` } });
    const got: any[] = [];
    ws.on('message', (m) => got.push(JSON.parse(String(m))));
    await new Promise((ok, fail) => {
      ws.once('open', ok);
      ws.once('error', fail);
    });
    await push([trace('live', { uid: 'live-1' })]);
    await edit({ uid: 'live-1', updates: { content: 'live edit' } });
    const deadline = Date.now() + 3000;
    while (got.filter((e) => e.data?.uid === 'live-1').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    ws.close();
    const mine = got.filter((e) => e.data?.uid === 'live-1');
    expect(mine.map((e) => e.type)).toEqual(['trace.created', 'trace.updated']);
    expect(mine[1].data).toMatchObject({ version: 2, content: 'live edit' });
  });
});
