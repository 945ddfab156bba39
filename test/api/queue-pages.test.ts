import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { everyPage } from '../helpers/pages.js';
import { hasScript, Terminal } from '../helpers/terminal.js';

const d = useApp();

// Plans of 24 reflections, the plan and each action with 10,000 characters of reasoning in two-byte
// characters: about 500 kB of JSON each (a proposal's body stays within its 1 MiB). 20 of them
// are about 10 MB, more than two pages of PAGE_BYTES; 3 are rejected, so the default (proposed)
// and status=all differ.
const PLANS = 20;
const REJECTED = new Set([2, 9, 15]);
const ACTIONS = 24;
const why = (i: number) => `${i} ${'é'.repeat(9_990)}`;
const ids: string[] = [];
const proposed = () => ids.filter((_, i) => !REJECTED.has(i));

beforeAll(async () => {
  for (let i = 0; i < PLANS; i++) {
    const actions = Array.from({ length: ACTIONS }, (_, a) => ({ kind: 'reflect', content: `plan ${i} thought ${a}`, reasoning: why(a) }));
    const r = await d.api('POST', '/agent/plan', { body: { task_id: 'long', reasoning: why(i), actions } });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    ids.push(r.json.plan_id);
  }
  for (const i of REJECTED) expect((await d.api('POST', '/agent/reject', { body: { plan_id: ids[i] } })).status).toBe(200);
  const small = await d.api('POST', '/agent/plan', { body: { task_id: 'small', actions: [{ kind: 'reflect', content: 'one short thought' }] } });
  expect(small.status, small.text).toBe(201);
}, 180_000);

/** Every page of the queue from the first, each checked against the budget. */
async function allPages(query: string): Promise<{ pages: number; plans: { plan_id: string; reasoning: string }[] }> {
  const { pages, items } = await everyPage<{ plan_id: string; reasoning: string }>(d, `/agent/queue?${query}`, 'plans', PLANS);
  return { pages, plans: items };
}

describe('GET /agent/queue in pages of PAGE_BYTES', () => {
  it('status=all: pages within the budget, every plan once, oldest first', async () => {
    const { pages, plans } = await allPages('status=all&task_id=long');
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(plans.map((p) => p.plan_id)).toEqual(ids);
    expect(plans.map((p) => p.reasoning)).toEqual(ids.map((_, i) => why(i)));
  });

  it('the default (proposed) pages the same way, without the rejected plans', async () => {
    const { pages, plans } = await allPages('task_id=long');
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(plans.map((p) => p.plan_id)).toEqual(proposed());
  });

  it('plans made at the same instant go on by plan id across pages, none lost or repeated', async () => {
    const model = d.store.get('plans', ids[0]!)!;
    const tied = Array.from({ length: 12 }, (_, i) => `pl_tied${String(11 - i).padStart(2, '0')}`);
    await d.store.transact((tx) => {
      for (const plan_id of tied) tx.put('plans', { ...model, plan_id, task_id: 'tied', created_at: '2031-01-01T00:00:00.000Z' });
    });
    const { pages, plans } = await allPages('task_id=tied');
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(plans.map((p) => p.plan_id)).toEqual(tied.slice().sort());
  });

  it('a small queue is one page: the plans and a null next_cursor, nothing else', async () => {
    const r = await d.api('GET', '/agent/queue?task_id=small');
    expect(Object.keys(r.json)).toEqual(['plans', 'next_cursor']);
    expect(r.json.next_cursor).toBeNull();
    expect(r.json.plans.map((p: { task_id: string }) => p.task_id)).toEqual(['small']);
  });

  it('refuses a cursor it did not make, or one of another listing, with 422', async () => {
    const push = await d.api('POST', '/memory/push', { body: { traces: [{ uid: 'q-trace', type: 'observation', task_id: 'q', content: 'hi' }] } });
    expect(push.status, push.text).toBe(201);
    const history = await d.api('GET', '/memory/history?uid=q-trace');
    expect(history.status).toBe(200);
    // A history cursor, made by the server, names another listing.
    const other = Buffer.from(JSON.stringify(['history', 'q-trace', 1])).toString('base64url');
    for (const cursor of ['not-a-cursor', other, Buffer.from('["queue", 1, 2]').toString('base64url')]) {
      const r = await d.api('GET', `/agent/queue?status=all&cursor=${encodeURIComponent(cursor)}`);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe('validation_failed');
      expect(r.json.error.details[0].path).toBe('cursor');
    }
  });
});

describe('the readers of the queue follow next_cursor', () => {
  it('kairos queue --json lists every plan of the status in one document', async () => {
    for (const [args, want] of [
      [['queue', '--task', 'long', '--json'], proposed()],
      [['queue', '--status', 'all', '--task', 'long', '--json'], ids],
    ] as const) {
      const r = await runCliInProcess([...args], { env: appCliEnv(d) });
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout);
      expect(body.next_cursor).toBeNull();
      expect(body.plans.map((p: { plan_id: string }) => p.plan_id)).toEqual(want);
    }
  });

  it('kairos queue prints a line for each plan, the newest too', async () => {
    const r = await runCliInProcess(['queue', '--task', 'long'], { env: appCliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/ proposed /g)).toHaveLength(proposed().length);
  });

  it("a short id of the newest plan resolves (the plans' ids come from every page)", async () => {
    const newest = ids[PLANS - 1]!;
    const r = await runCliInProcess(['execute', newest.slice(0, -4), '--simulate', '--json'], { env: appCliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).plans.map((p: { plan_id: string }) => p.plan_id)).toEqual([newest]);
  });

  it('the shell completes the ids of every plan', async () => {
    const r = await runCliInProcess(['__complete', 'plan'], { env: appCliEnv(d, { KAIROS_COMPLETE_TIMEOUT_MS: '120000' }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(d.store.byIndex('plans', 'user_id', d.userId).length);
  });

  it.skipIf(!hasScript)('kairos review counts every proposed plan', async () => {
    const t = new Terminal(['review', '--task', 'long'], appCliEnv(d));
    try {
      await t.see(`Plan 1 of ${proposed().length}`, 60_000);
    } finally {
      t.kill();
    }
  });
});
