import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import type { ExportQuery } from '../../../../src/contracts/export.js';
import { SCOPES } from '../../../../src/contracts/scopes.js';
import { ExportService } from '../../../../src/domain/export/export-service.js';
import { EventBus } from '../../../../src/domain/live-bus.js';
import { MemoryService } from '../../../../src/domain/memory/memory-service.js';
import { stageTraceRemoval } from '../../../../src/domain/memory/stage-trace.js';
import type { Principal } from '../../../../src/domain/principal.js';
import { tempoProfileParts } from '../../../../src/domain/tempo/tempo-service.js';
import { UsersService } from '../../../../src/domain/users/users-service.js';
import { KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

let home: string;
let store: Store;
let exporter: ExportService;
let memory: MemoryService;
let p: Principal;
const clock = { ms: Date.parse('2031-03-01T12:00:00Z'), now: () => new Date(clock.ms) };
const at = (iso: string) => (clock.ms = Date.parse(iso));

beforeEach(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  const users = new UsersService(store, clock, tempoProfileParts(store));
  const owner = await users.bootstrapOwner();
  memory = new MemoryService(store, clock, new EventBus(), new KeywordIndex());
  exporter = new ExportService(store, clock, users, { cacheTtlMs: 15 * 60_000 });
  p = { userId: owner.user_id, authUserId: owner.user_id, keyId: null, agentId: null, scopes: new Set(SCOPES), via: 'key' };
});
afterEach(async () => {
  await store.close();
  removeHome(home);
});

const q = (extra: Partial<ExportQuery>): ExportQuery => ({ user_id: p.userId, export_format: 'summary', ...extra }) as ExportQuery;
const push = (...traces: Record<string, unknown>[]) =>
  memory.push(p, traces.map((t) => ({ type: 'observation', task_id: 't', content: `note ${t.uid}`, ...t })) as never);

describe('diff by time (memory rebuilt from history)', () => {
  it('since/until see each trace as it was at each instant', async () => {
    at('2031-03-01T10:00:00Z');
    await push({ uid: 'a', content: 'first words' }, { uid: 'gone-later', content: 'x' });
    at('2031-03-01T11:00:00Z');
    await memory.edit(p, { uid: 'a', updates: { content: 'second words' } });
    at('2031-03-01T12:00:00Z');
    await memory.edit(p, { uid: 'a', updates: { content: 'third words', importance: 5 } });
    await push({ uid: 'b' });

    const d = await exporter.export(p, q({ export_format: 'diff', since: '2031-03-01T10:30:00Z', until: '2031-03-01T11:30:00Z' }));
    const r = d.body.results as {
      added: unknown[];
      removed: unknown[];
      changed: { uid: string; from_version: number; to_version: number; patch: { path: string; value?: unknown }[] }[];
    };
    expect(r.added).toEqual([]);
    expect(r.removed).toEqual([]);
    expect(r.changed).toHaveLength(1);
    expect(r.changed[0]).toMatchObject({ uid: 'a', from_version: 1, to_version: 2 });
    expect(r.changed[0]!.patch).toContainEqual({ op: 'replace', path: '/content', value: 'second words' });

    const now = (await exporter.export(p, q({ export_format: 'diff', since: '2031-03-01T10:30:00Z' }))).body.results as typeof r;
    expect(now.added.map((t) => (t as { uid: string }).uid)).toEqual(['b']);
    expect(now.changed[0]).toMatchObject({ uid: 'a', from_version: 1, to_version: 3 });
    expect(now.changed[0]!.patch).toContainEqual({ op: 'replace', path: '/content', value: 'third words' });

    // Before anything existed, everything is added, each as it is at `until`.
    const fromScratch = (await exporter.export(p, q({ export_format: 'diff', since: '2031-03-01T09:00:00Z', until: '2031-03-01T11:30:00Z' }))).body
      .results as typeof r;
    expect(fromScratch.added).toMatchObject([
      { uid: 'a', version: 2, content: 'second words' },
      { uid: 'gone-later', version: 1 },
    ]);
  });

  it('a trace deleted since still shows as removed, as it was', async () => {
    at('2031-03-01T10:00:00Z');
    await push({ uid: 'doomed', content: 'temporary thought' });
    at('2031-03-01T11:00:00Z');
    await store.transact((tx) => stageTraceRemoval(tx, 'doomed'));
    const r = (await exporter.export(p, q({ export_format: 'diff', since: '2031-03-01T10:30:00Z' }))).body.results as {
      removed: { uid: string; content: string }[];
    };
    expect(r.removed).toMatchObject([{ uid: 'doomed', content: 'temporary thought' }]);
  });

  it('a change only to a hidden field is no change; feedback shows only with include_feedback', async () => {
    at('2031-03-01T10:00:00Z');
    await push({ uid: 'a', chat_url: 'https://chat.example/1' });
    at('2031-03-01T11:00:00Z');
    await memory.edit(p, { uid: 'a', updates: { chat_url: 'https://chat.example/2' } });
    await push({ uid: 'fb' });
    at('2031-03-01T11:30:00Z');
    await memory.edit(p, { uid: 'fb', updates: { feedback_rating: 4 } });
    const since = '2031-03-01T11:10:00Z';
    const plain = (await exporter.export(p, q({ export_format: 'diff', since }))).body.results as { changed: unknown[] };
    expect(plain.changed.map((c) => (c as { uid: string }).uid)).toEqual(['fb']);
    expect(JSON.stringify(plain)).not.toContain('feedback_rating');
    const withFb = (await exporter.export(p, q({ export_format: 'diff', since, include_feedback: true }))).body.results as { changed: unknown[] };
    expect(JSON.stringify(withFb)).toContain('"path":"/feedback_rating","value":4');
    const sinceStart = (await exporter.export(p, q({ export_format: 'diff', since: '2031-03-01T10:30:00Z' }))).body;
    expect(JSON.stringify(sinceStart)).not.toMatch(/chat_url|chat\.example/);
  });
});

describe('diff by checkpoints', () => {
  it('from a checkpoint to now and between two checkpoints, after edits and deletes', async () => {
    await push({ uid: 'keep' }, { uid: 'edit-me', content: 'draft' }, { uid: 'delete-me' });
    const c1 = await exporter.export(p, q({ export_format: 'full', checkpoint: 'c1' }));
    expect(c1.body.checkpoint).toMatchObject({ name: 'c1', trace_count: 3, export_format: 'full' });
    expect((c1.body.checkpoint as { id: string }).id).toMatch(/^cp_/);
    clock.ms += 60_000;
    await memory.edit(p, { uid: 'edit-me', updates: { content: 'final' } });
    await store.transact((tx) => tx.delete('traces', 'delete-me'));
    await push({ uid: 'new-one' });

    const d = (await exporter.export(p, q({ export_format: 'diff', from_checkpoint: 'c1' }))).body.results as {
      added: { uid: string }[];
      removed: { uid: string }[];
      changed: { uid: string; patch: unknown[] }[];
    };
    expect(d.added.map((t) => t.uid)).toEqual(['new-one']);
    expect(d.removed.map((t) => t.uid)).toEqual(['delete-me']);
    expect(d.changed).toMatchObject([{ uid: 'edit-me', from_version: 1, to_version: 2 }]);

    const c2 = (await exporter.export(p, q({ export_format: 'summary', checkpoint: 'c2' }))).body.checkpoint as { id: string };
    const between = (await exporter.export(p, q({ export_format: 'diff', from_checkpoint: (c1.body.checkpoint as { id: string }).id, to_checkpoint: 'c2' })))
      .body.results;
    expect(between).toEqual(d);
    const back = (await exporter.export(p, q({ export_format: 'diff', from_checkpoint: c2.id, to_checkpoint: 'c1' }))).body.results as typeof d;
    expect(back.added.map((t) => t.uid)).toEqual(['delete-me']);
    expect(back.removed.map((t) => t.uid)).toEqual(['new-one']);
  });

  it('a taken name → 409, an unknown one → 404; the list is oldest first', async () => {
    await push({ uid: 'a' });
    await exporter.export(p, q({ checkpoint: 'mon' }));
    await exporter.export(p, q({ checkpoint: 'tue' }));
    await expect(exporter.export(p, q({ checkpoint: 'mon' }))).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(exporter.export(p, q({ export_format: 'diff', from_checkpoint: 'nope' }))).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(exporter.checkpoints(p).checkpoints.map((c) => c.name)).toEqual(['mon', 'tue']);
  });
});

describe('summary', () => {
  it('max_token_count is never exceeded (counted independently), for any budget', async () => {
    const long =
      'Planned the marathon block: intervals on Tuesday, tempo run Thursday, long run Sunday with gels every 40 minutes and a taper in the last two weeks.';
    await push(...Array.from({ length: 30 }, (_, i) => ({ uid: `s${i}`, content: `${long} Week ${i}.`, importance: 1 + (i % 5) })));
    for (const budget of [1, 7, 8, 9, 20, 33, 100, 250, 1000, 100_000]) {
      const body = (await exporter.export(p, q({ max_token_count: budget }))).body as {
        results: { summary: string }[];
        token_count: number;
        truncated?: boolean;
      };
      const counted = body.results.reduce((n, it) => n + encode(it.summary).length, 0);
      expect(counted, `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(body.token_count).toBe(counted);
      if (budget < 100_000) expect(body.truncated).toBe(true);
    }
  });

  it('ranks by importance and recency, and pages through everything once', async () => {
    at('2031-03-01T10:00:00Z');
    await push(
      { uid: 'old-5', importance: 5, timestamp: '2030-01-01T00:00:00Z' },
      { uid: 'new-3', importance: 3, timestamp: '2031-03-01T09:00:00Z' },
      { uid: 'old-4', importance: 4, timestamp: '2030-01-01T00:00:00Z' },
      { uid: 'new-1', importance: 1, timestamp: '2031-03-01T08:00:00Z' },
      { uid: 'old-1', importance: 1, timestamp: '2030-01-01T00:00:00Z' },
    );
    const order: string[] = [];
    let cursor: string | undefined;
    do {
      const body = (await exporter.export(p, q({ limit: 2, cursor }))).body as { results: { uid: string }[]; next_cursor: string | null };
      order.push(...body.results.map((r) => r.uid));
      cursor = body.next_cursor ?? undefined;
    } while (cursor);
    expect(order).toEqual(['old-5', 'new-3', 'old-4', 'new-1', 'old-1']);
  });

  it('an event write clears the cache (the calendar writes through the same store)', async () => {
    await push({ uid: 'a' });
    expect((await exporter.export(p, q({}))).cache).toBe('MISS');
    expect((await exporter.export(p, q({}))).cache).toBe('HIT');
    await store.transact((tx) => tx.put('events', { uid: 'ev_1', user_id: p.userId, title: 'Dentist' }));
    expect((await exporter.export(p, q({}))).cache).toBe('MISS');
    expect((await exporter.export(p, q({}))).cache).toBe('HIT');
    await store.transact((tx) => tx.delete('events', 'ev_1'));
    expect((await exporter.export(p, q({}))).cache).toBe('MISS');
  });

  it('a cached export stops being served once a trace in it expires', async () => {
    await push({ uid: 'brief', valid_until: new Date(clock.ms + 60_000).toISOString() });
    expect(((await exporter.export(p, q({}))).body.results as unknown[]).length).toBe(1);
    clock.ms += 61_000;
    const r = await exporter.export(p, q({}));
    expect(r.cache).toBe('MISS');
    expect(r.body.results).toEqual([]);
  });
});

describe('linked', () => {
  it('follows child_trace_ids and shared linked_event_uid, and lists the event', async () => {
    await push({ uid: 'res', task_id: 'other', linked_event_uid: 'ev_9' }, { uid: 'kid', task_id: 'other' });
    await push({ uid: 'plan', type: 'agent_plan', task_id: 'seed', child_trace_ids: ['kid'], linked_event_uid: 'ev_9' });
    await store.transact((tx) => tx.put('events', { uid: 'ev_9', user_id: p.userId, title: 'Gym', scheduled_for: '2031-03-02T07:00:00Z' }));
    const body = (await exporter.export(p, q({ export_format: 'linked', task_id: 'seed' }))).body as {
      results: { uid: string; depth: number }[];
      events: { uid: string }[];
    };
    // Same depth and timestamp: uid order.
    expect(body.results.map((r) => [r.uid, r.depth])).toEqual([
      ['plan', 0],
      ['kid', 1],
      ['res', 1],
    ]);
    expect(body.events.map((e) => e.uid)).toEqual(['ev_9']);
  });
});
