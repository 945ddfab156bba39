import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
let agentKey: string;
let other: { userId: string; token: string };

const SENSITIVE = /authored_by|chat_url|chat\.example/;

const qs = (params: Record<string, string | number | boolean | undefined>) =>
  '?' +
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

const exp = (params: Record<string, string | number | boolean | undefined>, key?: string) =>
  d.api('GET', '/context/export' + qs({ user_id: d.userId, ...params }), { key });

async function push(traces: Record<string, unknown>[], key?: string) {
  const r = await d.api('POST', '/memory/push', { body: { traces: traces.map((t) => ({ type: 'observation', content: `note ${t.uid}`, ...t })) }, key });
  expect(r.status, r.text).toBe(201);
}

async function edit(uid: string, updates: Record<string, unknown>) {
  const r = await d.api('PATCH', '/memory/edit', { body: { uid, updates } });
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  const k = await d.api('POST', '/auth/keys', { body: { name: 'planner-bot', agent_id: 'planner-bot', scopes: ['memory:read', 'memory:write'] } });
  agentKey = k.json.key;
  const reg = await d.api('POST', '/user/register', {
    body: { email: 'ny@example.com', password: 'correct horse', display_name: 'ny', timezone: 'America/New_York' },
  });
  expect(reg.status, reg.text).toBe(201);
  const login = await d.api('POST', '/user/login', { key: null, body: { email: 'ny@example.com', password: 'correct horse' } });
  other = { userId: reg.json.user_id, token: login.json.token };

  // A seeded store: an agent's traces carrying authored_by and chat_url, in two tasks.
  await push(
    [
      {
        uid: 'run-goal',
        type: 'goal',
        task_id: 'marathon',
        content: 'The goal is basically to run a marathon in under four hours',
        importance: 5,
        timestamp: '2031-01-10T08:00:00Z',
        chat_url: 'https://chat.example/c/1',
        tempo_tag: '@morning',
      },
      {
        uid: 'run-1',
        task_id: 'marathon',
        content: 'Ran 12 km at an easy pace, legs felt really heavy',
        timestamp: '2031-01-11T07:00:00Z',
        linked_trace_ids: ['run-goal'],
        chat_url: 'https://chat.example/c/2',
        fields: { chat_url: 'https://chat.example/nested' },
      },
      {
        uid: 'run-2',
        type: 'reflection',
        task_id: 'marathon',
        content: 'Long runs go better after a rest day',
        timestamp: '2031-01-12T19:00:00Z',
        linked_trace_ids: ['run-1'],
        feedback_rating: 4,
        notes: 'useful pattern',
      },
      { uid: 'tax-1', task_id: 'taxes', content: 'Collected the receipts for the tax return', timestamp: '2031-01-11T12:00:00Z', tempo_tag: '25m' },
    ],
    agentKey,
  );
});

describe('GET /context/export: validation and isolation', () => {
  it.each([
    ['no user_id', { user_id: undefined, export_format: 'summary' }, 'user_id'],
    ['no export_format', { export_format: undefined }, 'export_format'],
    ['an unknown export_format', { export_format: 'poetry' }, 'export_format'],
    ['a diff without since or from_checkpoint', { export_format: 'diff' }, 'since'],
    ['since on a summary', { export_format: 'summary', since: '2031-01-01T00:00:00Z' }, 'since'],
    ['max_token_count on a full export', { export_format: 'full', max_token_count: 10 }, 'max_token_count'],
    ['max_token_count 0', { export_format: 'summary', max_token_count: 0 }, 'max_token_count'],
    ['a bad group_by', { export_format: 'full', group_by: 'week' }, 'group_by'],
    ['a start_time without offset', { export_format: 'full', start_time: '2031-01-01T00:00:00' }, 'start_time'],
    ['until before since', { export_format: 'diff', since: '2031-02-01T00:00:00Z', until: '2031-01-01T00:00:00Z' }, 'until'],
    ['a foreign cursor', { export_format: 'full', cursor: 'bm9wZQ' }, 'cursor'],
    ['a checkpoint name like an id', { export_format: 'full', checkpoint: 'cp_mine' }, 'checkpoint'],
  ])('%s → 422 validation_failed naming %s', async (_what, params, path) => {
    const r = await exp(params);
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details.map((x: { path: string }) => x.path)).toContain(path);
  });

  it('a malformed tempo tag → 422 invalid_tempo_tag', async () => {
    expectError(await exp({ export_format: 'summary', tempo_tag: 'morning' }), 422, 'invalid_tempo_tag');
  });

  it("another user's user_id → 403; a key without export:read → 403; none → 401", async () => {
    expectError(await exp({ user_id: d.userId, export_format: 'summary' }, other.token), 403, 'forbidden');
    expectError(await exp({ export_format: 'summary' }, agentKey), 403, 'forbidden');
    expectError(await exp({ export_format: 'summary' }, null as unknown as string), 401, 'unauthorized');
    const own = await exp({ user_id: other.userId, export_format: 'full' }, other.token);
    expect(own.status, own.text).toBe(200);
    expect(own.json.results).toEqual([]);
  });

  it("an admin may export another user's context; an unknown user → 404", async () => {
    expect((await exp({ user_id: other.userId, export_format: 'summary' })).status).toBe(200);
    expectError(await exp({ user_id: 'usr_nobody', export_format: 'summary' }), 404, 'not_found');
  });

  it('is in the OpenAPI document with its parameters', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).json;
    const names = doc.paths['/context/export'].get.parameters.map((x: { name: string }) => x.name);
    for (const n of ['user_id', 'export_format', 'group_by', 'max_token_count', 'since', 'from_checkpoint', 'checkpoint', 'cursor']) expect(names).toContain(n);
    expect(doc.paths['/context/checkpoints'].get).toBeTruthy();
  });
});

describe('modes on a seeded store', () => {
  it('summary: {uid, type, task_id, timestamp, summary}, compressed, best first, with token_count', async () => {
    const r = await exp({ export_format: 'summary', task_id: 'marathon' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ user_id: d.userId, export_format: 'summary', next_cursor: null });
    expect(r.json.results.map((x: { uid: string }) => x.uid)).toEqual(['run-goal', 'run-2', 'run-1']);
    for (const it of r.json.results) expect(Object.keys(it).sort()).toEqual(['summary', 'task_id', 'timestamp', 'type', 'uid']);
    const goal = r.json.results[0].summary as string;
    expect(goal).toContain('run marathon in under four hours');
    expect(goal).not.toMatch(/basically|The goal/);
    expect(r.json.token_count).toBe(r.json.results.reduce((n: number, x: { summary: string }) => n + encode(x.summary).length, 0));
  });

  it('filters: tempo_tag, type, and start_time/end_time inclusive', async () => {
    const uids = async (params: Record<string, string>) => (await exp({ export_format: 'full', ...params })).json.results.map((x: { uid: string }) => x.uid);
    expect(await uids({ tempo_tag: '@MORNING' })).toEqual(['run-goal']);
    expect(await uids({ type: 'reflection' })).toEqual(['run-2']);
    expect(await uids({ start_time: '2031-01-11T07:00:00Z', end_time: '2031-01-11T12:00:00Z' })).toEqual(['run-1', 'tax-1']);
    expect(await uids({ start_time: '2031-01-11T08:00:00+01:00', end_time: '2031-01-11T07:00:00Z' })).toEqual(['run-1']);
  });

  it('full: raw traces oldest first; feedback only with include_feedback', async () => {
    const r = await exp({ export_format: 'full', task_id: 'marathon' });
    expect(r.json.results.map((t: { uid: string }) => t.uid)).toEqual(['run-goal', 'run-1', 'run-2']);
    expect(r.json.results[0]).toMatchObject({
      uid: 'run-goal',
      version: 1,
      content: 'The goal is basically to run a marathon in under four hours',
      importance: 5,
    });
    expect(r.text).not.toMatch(/feedback_rating|useful pattern/);
    const fb = await exp({ export_format: 'full', task_id: 'marathon', include_feedback: true });
    expect(fb.json.results[2]).toMatchObject({ feedback_rating: 4, notes: 'useful pattern' });
    const sum = await exp({ export_format: 'summary', type: 'reflection', include_feedback: true });
    expect(sum.json.results[0]).toMatchObject({ feedback_rating: 4 });
    expect(sum.json.results[0].summary).toContain('useful pattern');
  });

  it('linked: the matching trace and everything it links to, with depth', async () => {
    const r = await exp({ export_format: 'linked', type: 'reflection' });
    expect(r.json.results.map((t: { uid: string; depth: number }) => [t.uid, t.depth])).toEqual([
      ['run-2', 0],
      ['run-1', 1],
      ['run-goal', 2],
    ]);
  });

  it('pages with limit/cursor cover everything once, in every mode', async () => {
    for (const fmt of ['summary', 'full', 'linked']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const r = await exp({ export_format: fmt, limit: 1, cursor });
        expect(r.status, r.text).toBe(200);
        seen.push(...r.json.results.map((x: { uid: string }) => x.uid));
        cursor = r.json.next_cursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen.sort(), fmt).toEqual(['run-1', 'run-2', 'run-goal', 'tax-1']);
    }
  });

  it('a cursor of one mode is refused by another (422)', async () => {
    const c = (await exp({ export_format: 'summary', limit: 1 })).json.next_cursor;
    expectError(await exp({ export_format: 'full', cursor: c }), 422, 'validation_failed');
  });
});

describe('authored_by and chat_url never appear (raw response text)', () => {
  const modes: [string, Record<string, string | number | boolean>][] = [
    ['summary', { export_format: 'summary' }],
    ['summary grouped by task', { export_format: 'summary', group_by: 'task' }],
    ['full', { export_format: 'full', include_feedback: true }],
    ['full grouped by day', { export_format: 'full', group_by: 'day' }],
    ['linked', { export_format: 'linked', task_id: 'marathon' }],
    ['linked grouped by trace_type', { export_format: 'linked', group_by: 'trace_type' }],
    ['diff by time', { export_format: 'diff', since: '2000-01-01T00:00:00Z' }],
    ['diff by time, grouped', { export_format: 'diff', since: '2000-01-01T00:00:00Z', group_by: 'task' }],
  ];
  it.each(modes)('%s', async (_name, params) => {
    const r = await exp(params);
    expect(r.status, r.text).toBe(200);
    expect(r.text.length).toBeGreaterThan(200);
    expect(r.text).not.toMatch(SENSITIVE);
  });

  it('diff by checkpoint after chat_url and content edits', async () => {
    await push([{ uid: 'secret-1', task_id: 'secrets', content: 'v1', chat_url: 'https://chat.example/s/1' }], agentKey);
    expect((await exp({ export_format: 'full', task_id: 'secrets', checkpoint: 'secrets-0' })).status).toBe(200);
    await edit('secret-1', { chat_url: 'https://chat.example/s/2', content: 'v2' });
    const r = await exp({ export_format: 'diff', task_id: 'secrets', from_checkpoint: 'secrets-0' });
    expect(r.json.results.changed).toHaveLength(1);
    expect(r.json.results.changed[0].patch).toContainEqual({ op: 'replace', path: '/content', value: 'v2' });
    expect(r.text).not.toMatch(SENSITIVE);
  });
});

describe('diff', () => {
  it('by time: traces as they were at since and until', async () => {
    await push([{ uid: 'dt-1', task_id: 'dt', content: 'before' }]);
    await new Promise((r) => setTimeout(r, 20));
    const t1 = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await edit('dt-1', { content: 'after' });
    await push([{ uid: 'dt-2', task_id: 'dt' }]);
    const r = await exp({ export_format: 'diff', task_id: 'dt', since: t1 });
    expect(r.json.results.added.map((t: { uid: string }) => t.uid)).toEqual(['dt-2']);
    expect(r.json.results.removed).toEqual([]);
    expect(r.json.results.changed).toMatchObject([{ uid: 'dt-1', from_version: 1, to_version: 2 }]);
    expect(r.json.results.changed[0].patch).toContainEqual({ op: 'replace', path: '/content', value: 'after' });
    const past = await exp({ export_format: 'diff', task_id: 'dt', since: '2000-01-01T00:00:00Z', until: t1 });
    expect(past.json.results.added).toMatchObject([{ uid: 'dt-1', version: 1, content: 'before' }]);
  });

  it('by checkpoints after edits and a trace leaving the selection; names unique (409); listed', async () => {
    await push([
      { uid: 'cp-a', task_id: 'cp' },
      { uid: 'cp-b', task_id: 'cp' },
      { uid: 'cp-c', task_id: 'cp', content: 'draft' },
    ]);
    const c1 = await exp({ export_format: 'summary', task_id: 'cp', checkpoint: 'cp-week-1' });
    expect(c1.status, c1.text).toBe(200);
    expect(c1.json.checkpoint).toMatchObject({ name: 'cp-week-1', trace_count: 3, filters: { task_id: 'cp' } });
    expectError(await exp({ export_format: 'full', checkpoint: 'cp-week-1' }), 409, 'conflict');
    await edit('cp-c', { content: 'final' });
    await edit('cp-b', { task_id: 'elsewhere' });
    await push([{ uid: 'cp-d', task_id: 'cp' }]);
    const r = await exp({ export_format: 'diff', task_id: 'cp', from_checkpoint: 'cp-week-1' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.results.added.map((t: { uid: string }) => t.uid)).toEqual(['cp-d']);
    expect(r.json.results.removed.map((t: { uid: string }) => t.uid)).toEqual(['cp-b']);
    expect(r.json.results.changed).toMatchObject([{ uid: 'cp-c', from_version: 1, to_version: 2 }]);
    const byId = await exp({ export_format: 'diff', task_id: 'cp', from_checkpoint: c1.json.checkpoint.id });
    expect(byId.json.results).toEqual(r.json.results);
    expectError(await exp({ export_format: 'diff', from_checkpoint: 'no-such' }), 404, 'not_found');
    const list = await d.api('GET', '/context/checkpoints');
    expect(list.status).toBe(200);
    expect(list.json.checkpoints.map((c: { name: string }) => c.name)).toContain('cp-week-1');
    // Another user neither sees nor uses them.
    const theirs = await d.api('GET', '/context/checkpoints' + qs({ user_id: other.userId }), { key: other.token });
    expect(theirs.json.checkpoints).toEqual([]);
    expectError(await exp({ user_id: other.userId, export_format: 'diff', from_checkpoint: 'cp-week-1' }, other.token), 404, 'not_found');
    expectError(await d.api('GET', '/context/checkpoints' + qs({ user_id: d.userId }), { key: other.token }), 403, 'forbidden');
  });
});

describe('linked on graphs', () => {
  it('a cycle: each trace once, at its smallest depth', async () => {
    await push([{ uid: 'cyc-a', task_id: 'cyc-seed' }]);
    await push([{ uid: 'cyc-b', task_id: 'cyc', linked_trace_ids: ['cyc-a'] }]);
    await push([{ uid: 'cyc-c', task_id: 'cyc', linked_trace_ids: ['cyc-b'] }]);
    await edit('cyc-a', { linked_trace_ids: ['cyc-c'] });
    const r = await exp({ export_format: 'linked', task_id: 'cyc-seed' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.results.map((t: { uid: string; depth: number }) => [t.uid, t.depth])).toEqual([
      ['cyc-a', 0],
      ['cyc-c', 1],
      ['cyc-b', 2],
    ]);
    const all = await exp({ export_format: 'linked', task_id: 'cyc' });
    expect(all.json.results.map((t: { uid: string }) => t.uid).sort()).toEqual(['cyc-a', 'cyc-b', 'cyc-c']);
  });

  it('a chain of depth 5', async () => {
    await push([{ uid: 'ch-0', task_id: 'chain' }]);
    for (let i = 1; i <= 5; i++) await push([{ uid: `ch-${i}`, task_id: i === 5 ? 'chain-head' : 'chain', linked_trace_ids: [`ch-${i - 1}`] }]);
    const r = await exp({ export_format: 'linked', task_id: 'chain-head' });
    expect(r.json.results.map((t: { uid: string; depth: number }) => [t.uid, t.depth])).toEqual([5, 4, 3, 2, 1, 0].map((i, depth) => [`ch-${i}`, depth]));
  });
});

describe('max_token_count', () => {
  it('is never exceeded, counted independently with o200k', async () => {
    const text = 'Tempo run on the track: 3 x 2 km at threshold with 90 s jog recoveries, felt strong, HR 168 average, finished with 10 min cool-down.';
    await push(Array.from({ length: 25 }, (_, i) => ({ uid: `tok-${i}`, task_id: 'tokens', content: `${text} Session ${i}.`, importance: 1 + (i % 5) })));
    for (const budget of [1, 8, 15, 40, 99, 300, 5000]) {
      const r = await exp({ export_format: 'summary', task_id: 'tokens', max_token_count: budget });
      expect(r.status, r.text).toBe(200);
      const counted = r.json.results.reduce((n: number, x: { summary: string }) => n + encode(x.summary).length, 0);
      expect(counted, `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(r.json.token_count).toBe(counted);
    }
  });
});

describe('cache', () => {
  const xcache = async (params: Record<string, string | number | boolean> = { export_format: 'summary', task_id: 'marathon' }, key?: string) => {
    const r = await exp(params, key);
    expect(r.status, r.text).toBe(200);
    return r.headers.get('x-cache');
  };

  it('HIT on a repeat; MISS after a trace edit, a push, a tempo profile change, a user update', async () => {
    await xcache();
    expect(await xcache()).toBe('HIT');
    await edit('run-1', { importance: 4 });
    expect(await xcache()).toBe('MISS');
    expect(await xcache()).toBe('HIT');
    await push([{ uid: 'cache-new', task_id: 'elsewhere' }]);
    expect(await xcache()).toBe('MISS');
    expect(await xcache()).toBe('HIT');
    const adj = await d.api('POST', '/tempo/adjust', { body: { user_id: d.userId, preferences: { tag_mappings: { gym: '@morning' } } } });
    expect(adj.status, adj.text).toBe(200);
    expect(await xcache()).toBe('MISS');
    expect(await xcache()).toBe('HIT');
    const upd = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { display_name: 'runner' } } });
    expect(upd.status, upd.text).toBe(200);
    expect(await xcache()).toBe('MISS');
  });

  it("another user's write leaves the cache alone; parameters are part of the key", async () => {
    await xcache();
    expect(await xcache()).toBe('HIT');
    await push([{ uid: 'ny-1', task_id: 'x' }], other.token);
    expect(await xcache()).toBe('HIT');
    expect(await xcache({ export_format: 'summary', task_id: 'marathon', limit: 2 })).toBe('MISS');
    // Equivalent spellings normalize to one entry.
    await xcache({ export_format: 'full', start_time: '2031-01-11T08:00:00+01:00' });
    expect(await xcache({ export_format: 'full', start_time: '2031-01-11T07:00:00Z' })).toBe('HIT');
  });

  it('a checkpoint-saving export is never served from the cache', async () => {
    await xcache();
    expect(await xcache()).toBe('HIT');
    expect(await xcache({ export_format: 'summary', task_id: 'marathon', checkpoint: 'cache-cp' })).toBe('MISS');
  });
});

describe('group_by', () => {
  it("day is the user's local date: two traces an hour apart across New York midnight land on two days", async () => {
    // 04:30Z and 05:30Z on the 15th are 23:30 on the 14th and 00:30 on the 15th in New York (UTC-5).
    await push(
      [
        { uid: 'ny-late', task_id: 'sleep', content: 'Went to bed late', timestamp: '2031-01-15T04:30:00Z' },
        { uid: 'ny-early', task_id: 'sleep', content: 'Woke up at night', timestamp: '2031-01-15T05:30:00Z' },
        { uid: 'ny-next', task_id: 'work', type: 'goal', content: 'Ship it', timestamp: '2031-01-15T20:00:00Z' },
      ],
      other.token,
    );
    const r = await exp({ user_id: other.userId, export_format: 'full', group_by: 'day', start_time: '2031-01-15T00:00:00Z' }, other.token);
    expect(r.status, r.text).toBe(200);
    expect(r.json.results).toBeUndefined();
    expect(r.json.groups.map((g: { key: string; results: { uid: string }[] }) => [g.key, g.results.map((t) => t.uid)])).toEqual([
      ['2031-01-14', ['ny-late']],
      ['2031-01-15', ['ny-early', 'ny-next']],
    ]);
  });

  it('task and trace_type', async () => {
    const byTask = await exp({ user_id: other.userId, export_format: 'summary', group_by: 'task', start_time: '2031-01-15T00:00:00Z' }, other.token);
    expect(byTask.json.groups.map((g: { key: string }) => g.key).sort()).toEqual(['sleep', 'work']);
    const byType = await exp({ user_id: other.userId, export_format: 'full', group_by: 'trace_type', start_time: '2031-01-15T00:00:00Z' }, other.token);
    expect(byType.json.groups.map((g: { key: string; results: unknown[] }) => [g.key, g.results.length])).toEqual([
      ['observation', 2],
      ['goal', 1],
    ]);
  });
});
