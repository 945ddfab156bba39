import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { replay } from '../../../../src/contracts/patch.js';
import { EventBus, type LiveEvent } from '../../../../src/domain/live-bus.js';
import { MemoryService } from '../../../../src/domain/memory/memory-service.js';
import { stageTrace, stageTraceEdit, type TraceVersion } from '../../../../src/domain/memory/stage-trace.js';
import { traceReads } from '../../../../src/domain/memory/traces.js';
import type { Principal } from '../../../../src/domain/principal.js';
import type { AppError } from '../../../../src/errors.js';
import { followStore, KeywordIndex } from '../../../../src/search/indexes/keyword-index.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

const NOW = new Date('2031-05-01T12:00:00Z');
const clock = { now: () => NOW };
const owner: Principal = { userId: 'u1', authUserId: 'u1', keyId: null, agentId: null, scopes: new Set(['memory:read', 'memory:write']), via: 'key' };

let home: string;
let store: Store;
let bus: EventBus;
let memory: MemoryService;
let events: LiveEvent[];
beforeEach(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  bus = new EventBus();
  events = [];
  bus.subscribe((e) => events.push(e));
  const index = new KeywordIndex();
  followStore(store, index);
  memory = new MemoryService(store, clock, bus, index);
});
afterEach(async () => {
  await store.close();
  removeHome(home);
});

const versionsOf = (uid: string) =>
  traceReads(store)
    .versionsOf(uid)
    .sort((a, b) => a.version - b.version);
/** The rows the store itself holds (an unedited trace's first row is derived, not stored). */
const storedRows = (uid: string) => store.byIndex<TraceVersion>('trace_versions', 'uid', uid).map((r) => r.version);

async function thrown(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected an error');
}

describe('stageTrace', () => {
  it('stages a tr_ trace and its version-1 row inside the caller’s transaction', async () => {
    const t = await store.transact((tx) => {
      tx.put('plans', { plan_id: 'pl_1', user_id: 'u1' });
      return stageTrace(
        tx,
        {
          user_id: 'u1',
          type: 'agent_plan',
          task_id: 'dentist',
          content: 'Plan: book the dentist',
          actor: 'planner',
          tempo_tag: '45M',
          fields: { plan_id: 'pl_1' },
        },
        NOW,
      );
    });
    expect(t.uid).toMatch(/^tr_/);
    expect(t).toMatchObject({
      version: 1,
      authored_by: 'planner',
      importance: 3,
      tempo_tag: '45m',
      timestamp: NOW.toISOString(),
      created_at: NOW.toISOString(),
      linked_trace_ids: [],
      child_trace_ids: [],
    });
    expect(store.get('traces', t.uid)).toEqual(t);
    const [v1] = versionsOf(t.uid);
    expect(v1).toEqual({
      id: `${t.uid}#1`,
      uid: t.uid,
      user_id: 'u1',
      version: 1,
      timestamp: NOW.toISOString(),
      actor: 'planner',
      patch: [{ op: 'add', path: '', value: t }],
    });
    expect(storedRows(t.uid)).toEqual([]);
  });

  it('is discarded with the caller’s transaction when it fails', async () => {
    let uid = '';
    await expect(
      store.transact((tx) => {
        uid = stageTrace(tx, { user_id: 'u1', type: 'transition', task_id: 't', content: 'proposed → approved', actor: 'u1' }, NOW).uid;
        throw new Error('the plan write failed');
      }),
    ).rejects.toThrow('the plan write failed');
    expect(store.get('traces', uid)).toBeUndefined();
    expect(versionsOf(uid)).toEqual([]);
  });

  it('links may point to traces staged earlier in the same transaction, not to another user’s', async () => {
    const [a, b] = await store.transact((tx) => {
      const a = stageTrace(tx, { user_id: 'u1', type: 'agent_plan', task_id: 't', content: 'plan', actor: 'agent' }, NOW);
      const b = stageTrace(
        tx,
        {
          user_id: 'u1',
          type: 'transition',
          task_id: 't',
          content: 'approved',
          actor: 'u1',
          linked_trace_ids: [a.uid],
          fields: { from: 'proposed', to: 'approved' },
        },
        NOW,
      );
      return [a, b];
    });
    expect(b.linked_trace_ids).toEqual([a!.uid]);
    const e = await thrown(
      store.transact((tx) => stageTrace(tx, { user_id: 'u2', type: 'observation', task_id: 't', content: 'x', actor: 'u2', linked_trace_ids: [a!.uid] }, NOW)),
    );
    expect(e).toMatchObject({ status: 422, code: 'validation_failed' });
  });
});

describe('stageTraceEdit', () => {
  it('applies an edit like PATCH /memory/edit; replaying the history rebuilds each version', async () => {
    const t = await store.transact((tx) => stageTrace(tx, { user_id: 'u1', type: 'agent_plan', task_id: 't', content: 'plan', actor: 'agent' }, NOW));
    const child = await store.transact((tx) =>
      stageTrace(tx, { user_id: 'u1', type: 'calendar_event', task_id: 't', content: 'event', actor: 'agent', linked_event_uid: 'ev_1' }, NOW),
    );
    const later = new Date('2031-05-01T13:00:00Z');
    const v2 = await store.transact((tx) => stageTraceEdit(tx, t.uid, { child_trace_ids: [child.uid], linked_event_uid: 'ev_1' }, 'executor', later));
    expect(v2).toMatchObject({
      version: 2,
      child_trace_ids: [child.uid],
      linked_event_uid: 'ev_1',
      updated_at: later.toISOString(),
      created_at: NOW.toISOString(),
    });
    // The first edit stores the first row (from the trace as it was) with its own.
    expect(storedRows(t.uid).sort()).toEqual([1, 2]);
    const rows = versionsOf(t.uid);
    expect(rows.map((r) => [r.version, r.actor])).toEqual([
      [1, 'agent'],
      [2, 'executor'],
    ]);
    expect(replay([rows[0]!.patch])).toEqual(t);
    expect(replay(rows.map((r) => r.patch))).toEqual(store.get('traces', t.uid));
  });

  it('refuses transition traces (409 immutable_trace), stale versions (409) and unknown uids (404)', async () => {
    const tr = await store.transact((tx) => stageTrace(tx, { user_id: 'u1', type: 'transition', task_id: 't', content: 'approved', actor: 'u1' }, NOW));
    expect(await thrown(store.transact((tx) => stageTraceEdit(tx, tr.uid, { content: 'rewritten' }, 'u1', NOW)))).toMatchObject({
      status: 409,
      code: 'immutable_trace',
    });
    expect(await thrown(memory.edit(owner, { uid: tr.uid, updates: { notes: 'x' } }))).toMatchObject({ status: 409, code: 'immutable_trace' });
    expect(store.get<StoredTrace>('traces', tr.uid)!.version).toBe(1);
    const o = await store.transact((tx) => stageTrace(tx, { user_id: 'u1', type: 'observation', task_id: 't', content: 'x', actor: 'u1' }, NOW));
    expect(await thrown(store.transact((tx) => stageTraceEdit(tx, o.uid, { content: 'y' }, 'u1', NOW, { expectedVersion: 2 })))).toMatchObject({
      status: 409,
      code: 'version_conflict',
    });
    expect(await thrown(store.transact((tx) => stageTraceEdit(tx, 'nope', { content: 'y' }, 'u1', NOW)))).toMatchObject({ status: 404 });
  });

  it('asks the caller to authorize the owner before changing anything', async () => {
    const o = await store.transact((tx) => stageTrace(tx, { user_id: 'u1', type: 'observation', task_id: 't', content: 'x', actor: 'u1' }, NOW));
    const stranger: Principal = { ...owner, userId: 'u2', authUserId: 'u2' };
    expect(await thrown(memory.edit(stranger, { uid: o.uid, updates: { content: 'mine now' } }))).toMatchObject({ status: 403 });
    expect(store.get<StoredTrace>('traces', o.uid)!.content).toBe('x');
  });
});

describe('MemoryService', () => {
  it('indexes traces staged by other areas and announces what they ask', async () => {
    const t = await store.transact((tx) =>
      stageTrace(tx, { user_id: 'u1', type: 'calendar_event', task_id: 'cal', content: 'Quarterly budget review', actor: 'u1' }, NOW),
    );
    memory.announce(t, 'created');
    expect((await memory.search(owner, { query: 'budgets' })).results.map((r) => r.uid)).toEqual([t.uid]);
    expect(events.map((e) => [e.type, e.user_id, (e.data as StoredTrace).uid])).toEqual([['trace.created', 'u1', t.uid]]);
  });

  it('runs edit hooks inside the edit’s transaction: a failing hook leaves the trace unchanged', async () => {
    const t = await store.transact((tx) => stageTrace(tx, { user_id: 'u1', type: 'calendar_event', task_id: 'cal', content: 'v1', actor: 'u1' }, NOW));
    const seen: [number, number][] = [];
    memory.onEdit((tx, before, after) => {
      seen.push([before.version, after.version]);
      tx.put('plans', { plan_id: 'pl_hook', user_id: 'u1', status: 'edited' });
      if (after.content === 'boom') throw new Error('hook failed');
    });
    await memory.edit(owner, { uid: t.uid, updates: { content: 'v2' } });
    expect(store.get('plans', 'pl_hook')).toMatchObject({ status: 'edited' });
    await expect(memory.edit(owner, { uid: t.uid, updates: { content: 'boom' } })).rejects.toThrow('hook failed');
    expect(store.get<StoredTrace>('traces', t.uid)).toMatchObject({ version: 2, content: 'v2' });
    expect(seen).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(events.map((e) => e.type)).toEqual(['trace.updated']);
  });

  it('the index is rebuilt from the store when a daemon starts', async () => {
    await memory.push(owner, [{ type: 'observation', task_id: 't', content: 'Persimmon harvest notes' }]);
    await store.close();
    store = await Store.open(homePaths(home));
    const index = new KeywordIndex();
    followStore(store, index);
    memory = new MemoryService(store, clock, bus, index);
    expect((await memory.search(owner, { query: 'persimmon' })).results).toHaveLength(1);
  });
});
