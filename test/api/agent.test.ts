import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeHome, startDaemon, tempHome } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

// No background snapshot during the test: the byte-identical check compares db.json and the journal.
const d = useApp({}, { config: { snapshot: { every_ms: 3_600_000 } } });

beforeAll(async () => {
  const r = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
  expect(r.status, r.text).toBe(200);
});

const event = (title: string, at: string, minutes: number, extra: Record<string, unknown> = {}) => ({
  kind: 'add_event',
  title,
  scheduled_for: at,
  duration_minutes: minutes,
  ...extra,
});

async function propose(body: Record<string, unknown>, key?: string) {
  const r = await d.api('POST', '/agent/plan', { body, key });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

async function approve(planId: string, extra: Record<string, unknown> = {}) {
  const r = await d.api('POST', '/agent/approve', { body: { plan_id: planId, ...extra } });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

async function pull(query: Record<string, string>) {
  const r = await d.api('GET', `/memory/pull?${new URLSearchParams({ limit: '1000', ...query })}`);
  expect(r.status, r.text).toBe(200);
  return r.json.traces as any[];
}

async function mint(scopes: string[], agentId?: string) {
  const r = await d.api('POST', '/auth/keys', { body: { name: `k-${scopes.join('-')}`, scopes, ...(agentId ? { agent_id: agentId } : {}) } });
  expect(r.status, r.text).toBe(201);
  return r.json.key as string;
}

describe('proposal', () => {
  it('an external agent’s own actions → 201 proposed plan with ids, defaults and an agent_plan trace', async () => {
    const agentKey = await mint(['agent:plan'], 'bank-bot');
    const p = await propose(
      {
        task_id: 'bank',
        reasoning: 'the bank closes at noon',
        actions: [
          event('Call the bank', '2031-01-03T11:00:00+01:00', 15, { reasoning: 'before noon', confidence: 0.8, tempo_tag: '@Morning' }),
          { kind: 'reflect', content: 'Money admin done for the month', scheduled_for: '2031-01-03T12:00:00Z' },
        ],
      },
      agentKey,
    );
    expect(p.plan_id).toMatch(/^pl_/);
    expect(p).toMatchObject({
      status: 'proposed',
      edited: false,
      prompt: null,
      agent_id: 'bank-bot',
      task_id: 'bank',
      reasoning: 'the bank closes at noon',
      user_id: d.userId,
    });
    expect(p.actions).toHaveLength(2);
    expect(p.actions[0]).toMatchObject({
      kind: 'add_event',
      task_id: 'bank',
      title: 'Call the bank',
      scheduled_for: '2031-01-03T10:00:00.000Z',
      duration_minutes: 15,
      estimate_minutes: 15,
      tempo_tag: '@morning',
      reasoning: 'before noon',
      confidence: 0.8,
      status: 'proposed',
    });
    expect(p.actions[0].action_id).toMatch(/^ac_/);
    expect(p.actions[1]).toMatchObject({ kind: 'reflect', content: 'Money admin done for the month', duration_minutes: 0, confidence: 1, reasoning: '' });
    const [trace] = await pull({ type: 'agent_plan', task_id: 'bank' });
    expect(trace.uid).toBe(p.trace_uid);
    expect(trace.authored_by).toBe('bank-bot');
    expect(trace.fields.plan_id).toBe(p.plan_id);
    expect(trace.content).toContain('Call the bank');
  });

  it('task_id defaults to the actions’ common task, else the plan id; a duration tag gives the duration', async () => {
    const p = await propose({
      actions: [
        event('Focus', '2031-01-06T09:00:00Z', 25, { task_id: 'focus' }),
        { kind: 'add_event', title: 'Pomodoro', scheduled_for: '2031-01-06T10:00:00Z', tempo_tag: '25m', task_id: 'focus' },
      ],
    });
    expect(p.task_id).toBe('focus');
    expect(p.actions[1].duration_minutes).toBe(25);
    const q = await propose({ actions: [event('Loose', '2031-01-06T11:00:00Z', 10)] });
    expect(q.task_id).toBe(q.plan_id);
  });

  it.each([
    ['an unknown kind', [{ kind: 'teleport' }], 'actions.0.kind'],
    ['an add_event without time', [{ kind: 'add_event', title: 'x', duration_minutes: 5 }], 'actions.0.scheduled_for'],
    ['an add_event without duration', [{ kind: 'add_event', title: 'x', scheduled_for: '2031-01-06T10:00:00Z' }], 'actions.0.duration_minutes'],
    ['a reschedule without event', [{ kind: 'reschedule_event', scheduled_for: '2031-01-06T10:00:00Z' }], 'actions.0.event_uid'],
    ['a reschedule of an unknown event', [{ kind: 'reschedule_event', event_uid: 'ev_nope', scheduled_for: '2031-01-06T10:00:00Z' }], 'actions.0.event_uid'],
    ['a reflect without content', [{ kind: 'reflect' }], 'actions.0.content'],
    ['a wrong type', [{ kind: 'add_event', title: 'x', scheduled_for: '2031-01-06T10:00:00Z', duration_minutes: 'long' }], 'actions.0.duration_minutes'],
    ['an unknown field', [{ ...event('x', '2031-01-06T10:00:00Z', 5), colour: 'red' }], 'actions.0'],
    ['no action at all', [], 'actions'],
    ['51 actions', Array.from({ length: 51 }, (_, i) => event(`e${i}`, '2031-01-06T10:00:00Z', 5)), 'actions'],
  ])('%s → 422 plan_invalid naming the problem', async (_what, actions, path) => {
    const r = await d.api('POST', '/agent/plan', { body: { actions } });
    expectError(r, 422, 'plan_invalid');
    expect(r.json.error.details.map((x: any) => x.path)).toContain(path);
  });

  it('a bad tempo tag in an action → 422 invalid_tempo_tag', async () => {
    expectError(
      await d.api('POST', '/agent/plan', { body: { actions: [event('x', '2031-01-06T10:00:00Z', 5, { tempo_tag: 'Morning!!' })] } }),
      422,
      'invalid_tempo_tag',
    );
  });

  it('neither a prompt nor actions → 422', async () => {
    expectError(await d.api('POST', '/agent/plan', { body: {} }), 422, 'validation_failed');
    expectError(await d.api('POST', '/agent/plan', { body: { task_id: 'x' } }), 422, 'validation_failed');
  });

  it('nothing is stored by a refused proposal', async () => {
    const before = (await d.api('GET', '/agent/status')).json.store;
    await d.api('POST', '/agent/plan', { body: { actions: [{ kind: 'reschedule_event', event_uid: 'ev_nope', scheduled_for: '2031-01-06T10:00:00Z' }] } });
    expect((await d.api('GET', '/agent/status')).json.store).toMatchObject({ plans: before.plans, traces: before.traces });
  });
});

describe('the full lifecycle', () => {
  it('propose → edit → approve → execute → edit the event → edited, every step a linked transition trace', async () => {
    const p = await propose({ task_id: 'dentist', actions: [event('Dentist', '2031-01-07T15:00:00Z', 45)] });
    const actionId = p.actions[0].action_id;

    const approved = await approve(p.plan_id, { actions: [{ action_id: actionId, title: 'Dentist (Dr. Who)', duration_minutes: 60 }] });
    expect(approved).toMatchObject({ status: 'approved', edited: true });
    expect(approved.actions[0]).toMatchObject({ title: 'Dentist (Dr. Who)', duration_minutes: 60, estimate_minutes: 45, edited: true, status: 'approved' });
    expect(approved.actions[0].original).toMatchObject({ title: 'Dentist', duration_minutes: 45 });
    expect(approved.approved_at).toBeTruthy();

    const ex = await d.api('POST', '/agent/execute', { body: { plan_id: p.plan_id } });
    expect(ex.status, ex.text).toBe(200);
    expect(ex.json.simulated).toBe(false);
    expect(ex.json.plans[0].status).toBe('executed');
    const result = ex.json.results[0];
    expect(result.event).toMatchObject({
      title: 'Dentist (Dr. Who)',
      duration_minutes: 60,
      scheduled_for: '2031-01-07T15:00:00.000Z',
      source: 'agent',
      task_id: 'dentist',
    });
    expect(ex.json.log.map((l: any) => l.message).join('\n')).toMatch(/created event/);
    const evs = await d.api('GET', '/calendar/events?start=2031-01-07T00:00:00Z&end=2031-01-08T00:00:00Z');
    expect(evs.json.events.map((e: any) => e.uid)).toContain(result.event.uid);

    // The plan's trace links to what execution produced.
    const planTrace = (await pull({ type: 'agent_plan', task_id: 'dentist' })).find((t) => t.uid === p.trace_uid);
    expect(planTrace.linked_event_uid).toBe(result.event.uid);
    expect(planTrace.child_trace_ids).toContain(result.trace.uid);
    expect(planTrace.version).toBeGreaterThan(1);
    const record = (await pull({ type: 'calendar_event', task_id: 'dentist' })).find((t) => t.uid === result.trace.uid);
    expect(record).toMatchObject({ linked_event_uid: result.event.uid, linked_trace_ids: [p.trace_uid] });

    // The duration edited at approval already taught the bias (60 for an estimate of 45)…
    const biasOf = async () => (await d.api('GET', '/tempo/profile')).json.duration_biases['dentist (dr. who)'];
    expect(await biasOf()).toBe(1.17);
    const edit = await d.api('PATCH', '/calendar/edit', { body: { uid: result.event.uid, updates: { duration_minutes: 90 } } });
    expect(edit.status, edit.text).toBe(200);
    // …and so does the event's new length (90 for 45), once the edit is announced.
    for (let i = 0; (await biasOf()) === 1.17 && i < 40; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await biasOf()).toBeCloseTo(1.585, 1);
    const q = await d.api('GET', '/agent/queue?status=edited&task_id=dentist');
    expect(q.json.plans.map((x: any) => x.plan_id)).toEqual([p.plan_id]);
    expect(q.json.plans[0].actions[0].status).toBe('edited');
    expect(q.json.plans[0].edited_at).toBeTruthy();

    const transitions = (await pull({ type: 'transition', task_id: 'dentist' })).filter((t) => t.fields.plan_id === p.plan_id);
    expect(transitions.map((t) => [t.fields.from, t.fields.to])).toEqual([
      ['proposed', 'approved'],
      ['approved', 'executed'],
      ['executed', 'edited'],
    ]);
    for (const t of transitions) {
      expect(t.linked_trace_ids).toEqual([p.trace_uid]);
      expect(t.fields.actor).toBe(d.userId);
      expect(t.content).toContain(p.plan_id);
    }
    // Transition traces are immutable.
    expectError(await d.api('PATCH', '/memory/edit', { body: { uid: transitions[0].uid, updates: { content: 'rewritten' } } }), 409, 'immutable_trace');
  });

  it('propose → reject keeps the reason; the plan leaves the default queue', async () => {
    const p = await propose({ actions: [event('Gym', '2031-01-02T07:00:00Z', 60)] });
    const r = await d.api('POST', '/agent/reject', { body: { plan_id: p.plan_id, reason: 'not now' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'rejected', reason: 'not now' });
    expect(r.json.actions[0].status).toBe('rejected');
    expect((await d.api('GET', '/agent/queue')).json.plans.map((x: any) => x.plan_id)).not.toContain(p.plan_id);
    expect((await d.api('GET', '/agent/queue?status=rejected')).json.plans.map((x: any) => x.plan_id)).toContain(p.plan_id);
    const [t] = (await pull({ type: 'transition', task_id: p.task_id })).filter((x) => x.fields.plan_id === p.plan_id);
    expect(t.fields).toMatchObject({ from: 'proposed', to: 'rejected', reason: 'not now', plan_id: p.plan_id });
  });

  it('approve with execute: true executes at once; reschedule moves an event; reflect writes a reflection', async () => {
    const created = await d.api('POST', '/calendar/create', {
      body: { title: 'Standup', scheduled_for: '2031-01-08T09:00:00Z', duration_minutes: 15, task_id: 'work' },
    });
    expect(created.status, created.text).toBe(201);
    const p = await propose({
      task_id: 'work',
      actions: [
        { kind: 'reschedule_event', event_uid: created.json.uid, scheduled_for: '2031-01-08T09:30:00Z' },
        { kind: 'reflect', content: 'Standups run better after coffee' },
      ],
    });
    expect(p.actions[0]).toMatchObject({ title: 'Standup', duration_minutes: 15, event_uid: created.json.uid });
    const r = await approve(p.plan_id, { execute: true });
    expect(r.status).toBe('executed');
    expect(r.execution.results[0].before.scheduled_for).toBe('2031-01-08T09:00:00.000Z');
    expect(r.execution.results[0].event).toMatchObject({ uid: created.json.uid, scheduled_for: '2031-01-08T09:30:00.000Z', version: 2 });
    const reflection = r.execution.results[1].trace;
    expect(reflection).toMatchObject({ type: 'reflection', content: 'Standups run better after coffee', linked_trace_ids: [p.trace_uid] });
    expect(r.actions[1].trace_uid).toBe(reflection.uid);

    // Feedback on the reflection (a rating) is not an edit of it…
    const fb = await d.api('PATCH', '/memory/edit', { body: { uid: reflection.uid, updates: { feedback_rating: 4 } } });
    expect(fb.status, fb.text).toBe(200);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('executed');
    // …changing its content is.
    const ed = await d.api('PATCH', '/memory/edit', { body: { uid: reflection.uid, updates: { content: 'Standups run better after tea' } } });
    expect(ed.status, ed.text).toBe(200);
    const after = (await d.api('GET', `/agent/plans/${p.plan_id}`)).json;
    expect(after.status).toBe('edited');
    expect(after.actions.map((a: any) => a.status)).toEqual(['executed', 'edited']);
  });

  it('removing an event a plan created moves the plan to edited', async () => {
    const p = await propose({ actions: [event('Haircut', '2031-01-09T16:00:00Z', 30)] });
    const r = await approve(p.plan_id, { execute: true });
    const rm = await d.api('DELETE', `/calendar/remove?uid=${r.execution.results[0].event.uid}`);
    expect(rm.status, rm.text).toBe(200);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('edited');
  });

  it('another plan rescheduling an event a plan created moves that plan to edited', async () => {
    const a = await propose({ actions: [event('Piano lesson', '2031-01-09T18:00:00Z', 45)] });
    const made = (await approve(a.plan_id, { execute: true })).execution.results[0].event.uid;
    const b = await propose({ actions: [{ kind: 'reschedule_event', event_uid: made, scheduled_for: '2031-01-09T19:00:00Z' }] });
    await approve(b.plan_id, { execute: true });
    expect((await d.api('GET', `/agent/plans/${a.plan_id}`)).json.status).toBe('edited');
    expect((await d.api('GET', `/agent/plans/${b.plan_id}`)).json.status).toBe('executed');
    const [t] = (await pull({ type: 'transition', task_id: a.task_id })).filter((x) => x.fields.plan_id === a.plan_id && x.fields.to === 'edited');
    expect(t.content).toContain(made);
  });

  it('an action left out at approval is not executed', async () => {
    const p = await propose({ task_id: 'partial', actions: [event('Keep', '2031-01-10T10:00:00Z', 30), event('Drop', '2031-01-10T11:00:00Z', 30)] });
    const r = await approve(p.plan_id, { execute: true, actions: [{ action_id: p.actions[1].action_id, status: 'rejected' }] });
    expect(r.actions.map((a: any) => a.status)).toEqual(['executed', 'rejected']);
    expect(r.execution.results.map((x: any) => x.event.title)).toEqual(['Keep']);
    const bad = await d.api('POST', '/agent/plan', { body: { actions: [event('Only', '2031-01-10T12:00:00Z', 30)] } });
    const all = await d.api('POST', '/agent/approve', {
      body: { plan_id: bad.json.plan_id, actions: [{ action_id: bad.json.actions[0].action_id, status: 'rejected' }] },
    });
    expectError(all, 422, 'validation_failed');
  });

  it('execute by task_id runs every approved plan of the task in one go', async () => {
    const a = await propose({ task_id: 'move-house', actions: [event('Pack books', '2031-01-11T10:00:00Z', 60)] });
    const b = await propose({ task_id: 'move-house', actions: [event('Pack kitchen', '2031-01-11T12:00:00Z', 60)] });
    const c = await propose({ task_id: 'move-house', actions: [event('Not approved', '2031-01-11T14:00:00Z', 60)] });
    await approve(a.plan_id);
    await approve(b.plan_id);
    const r = await d.api('POST', '/agent/execute', { body: { task_id: 'move-house' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.plans.map((x: any) => [x.plan_id, x.status])).toEqual([
      [a.plan_id, 'executed'],
      [b.plan_id, 'executed'],
    ]);
    expect((await d.api('GET', `/agent/plans/${c.plan_id}`)).json.status).toBe('proposed');
    expectError(await d.api('POST', '/agent/execute', { body: { task_id: 'move-house' } }), 409, 'invalid_transition');
    expectError(await d.api('POST', '/agent/execute', { body: { task_id: 'no-such-task' } }), 404, 'not_found');
    expectError(await d.api('POST', '/agent/execute', { body: {} }), 422, 'validation_failed');
    expectError(await d.api('POST', '/agent/execute', { body: { task_id: 'x', plan_id: 'y' } }), 422, 'validation_failed');
  });
});

describe('illegal transitions', () => {
  const plans: Record<string, string> = {};
  beforeAll(async () => {
    const mk = async (title: string) => (await propose({ task_id: 'states', actions: [event(title, '2031-01-12T10:00:00Z', 30)] })).plan_id;
    plans.proposed = await mk('P');
    plans.approved = await mk('A');
    await approve(plans.approved);
    plans.executed = await mk('E');
    await approve(plans.executed, { execute: true });
    plans.rejected = await mk('R');
    await d.api('POST', '/agent/reject', { body: { plan_id: plans.rejected } });
    plans.edited = await mk('D');
    const r = await approve(plans.edited, { execute: true });
    await d.api('PATCH', '/calendar/edit', { body: { uid: r.execution.results[0].event.uid, updates: { title: 'D!' } } });
    expect((await d.api('GET', `/agent/plans/${plans.edited}`)).json.status).toBe('edited');
  });

  const illegal: [string, string, Record<string, unknown>][] = [
    ['approve', 'approved', {}],
    ['approve', 'executed', {}],
    ['approve', 'rejected', {}],
    ['approve', 'edited', {}],
    ['reject', 'approved', {}],
    ['reject', 'executed', {}],
    ['reject', 'rejected', {}],
    ['reject', 'edited', {}],
    ['execute', 'proposed', {}],
    ['execute', 'executed', {}],
    ['execute', 'rejected', {}],
    ['execute', 'edited', {}],
    ['execute', 'executed', { simulate: true }],
    ['execute', 'rejected', { simulate: true }],
  ];
  it.each(illegal)('%s of a %s plan %o → 409 invalid_transition, nothing changes', async (verb, state, extra) => {
    const before = (await d.api('GET', `/agent/plans/${plans[state]}`)).json;
    const r = await d.api('POST', `/agent/${verb}`, { body: { plan_id: plans[state], ...extra } });
    expectError(r, 409, 'invalid_transition');
    expect(r.json.error.message).toContain(state);
    expect((await d.api('GET', `/agent/plans/${plans[state]}`)).json).toEqual(before);
  });

  it.each(['approve', 'reject', 'execute'])('%s of an unknown plan → 404 not_found', async (verb) => {
    expectError(await d.api('POST', `/agent/${verb}`, { body: { plan_id: 'pl_nope' } }), 404, 'not_found');
  });
});

describe('constraints', () => {
  let token: string;
  const as = (method: string, path: string, body?: unknown) => d.api(method, path, { body, key: token });
  beforeAll(async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'c@example.com', password: 'correct horse', display_name: 'C', timezone: 'UTC' } });
    expect(reg.status, reg.text).toBe(201);
    token = (await d.api('POST', '/user/login', { key: null, body: { email: 'c@example.com', password: 'correct horse' } })).json.token;
    const adj = await as('POST', '/tempo/adjust', {
      preferences: { blocked: [{ start: '12:00', end: '13:00', label: 'lunch' }], cadence: { reflect: { max: 1, per: 'day' } }, budget: { per_day: 2 } },
    });
    expect(adj.status, adj.text).toBe(200);
  });

  it('an action in a blocked slot: the person’s own plan is proposed with a warning naming the slot', async () => {
    // Blocked time binds agents (test/cli/planner-daily.test.ts: an agent key gets the 422).
    const r = await as('POST', '/agent/plan', { actions: [event('Lunch meeting', '2031-02-03T12:30:00Z', 30)] });
    expect(r.status, r.text).toBe(201);
    expect(r.json.actions[0].warnings).toEqual([expect.stringMatching(/12:00–13:00 is blocked \(lunch\)/)]);
    await as('POST', '/agent/reject', { plan_id: r.json.plan_id });
  });

  it('every violated rule is in details: budget and cadence together (blocked time only warns the person)', async () => {
    const r = await as('POST', '/agent/plan', {
      actions: [
        event('One', '2031-02-04T09:00:00Z', 30),
        event('Two', '2031-02-04T10:00:00Z', 30),
        event('Three at lunch', '2031-02-04T12:15:00Z', 30),
        { kind: 'reflect', content: 'first', scheduled_for: '2031-02-05T08:00:00Z' },
        { kind: 'reflect', content: 'second', scheduled_for: '2031-02-06T08:00:00Z' },
      ],
    });
    expectError(r, 422, 'constraint_violation');
    const got = r.json.error.details.map((x: any) => [x.path, x.rule]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['actions.2.scheduled_for', 'budget_day'],
        ['actions.4.kind', 'cadence'],
      ]),
    );
    expect(got).toHaveLength(2);
    const budget = r.json.error.details.find((x: any) => x.rule === 'budget_day');
    expect(budget).toMatchObject({ limit: 2, count: 2, period: '2031-02-04' });
  });

  it('the budget counts earlier non-rejected plans; rejecting one frees its slot', async () => {
    const a = await as('POST', '/agent/plan', { actions: [event('A', '2031-02-10T09:00:00Z', 30), event('B', '2031-02-10T10:00:00Z', 30)] });
    expect(a.status, a.text).toBe(201);
    expectError(await as('POST', '/agent/plan', { actions: [event('C', '2031-02-10T11:00:00Z', 30)] }), 422, 'constraint_violation');
    expect((await as('POST', '/agent/reject', { plan_id: a.json.plan_id })).status).toBe(200);
    expect((await as('POST', '/agent/plan', { actions: [event('C', '2031-02-10T11:00:00Z', 30)] })).status).toBe(201);
  });

  it('cadence counts proposals made today, rejected ones included', async () => {
    // At a set time: a reflection without one is placed now, and between 12:00 and 13:00 UTC now is
    // the lunch block above (CI saw this test fail then). Cadence counts by the day of proposal.
    const at = '2031-02-20T09:00:00Z';
    const first = await as('POST', '/agent/plan', { actions: [{ kind: 'reflect', content: 'today', scheduled_for: at }] });
    expect(first.status, first.text).toBe(201);
    await as('POST', '/agent/reject', { plan_id: first.json.plan_id });
    const r = await as('POST', '/agent/plan', { actions: [{ kind: 'reflect', content: 'again', scheduled_for: at }] });
    expectError(r, 422, 'constraint_violation');
    expect(r.json.error.details[0]).toMatchObject({ rule: 'cadence', kind: 'reflect', max: 1, count: 1 });
  });

  it('an action moved into a blocked slot at approval is re-checked → 422, the plan stays proposed', async () => {
    const p = await as('POST', '/agent/plan', { actions: [event('Walk', '2031-02-17T09:00:00Z', 30)] });
    expect(p.status, p.text).toBe(201);
    const r = await as('POST', '/agent/approve', {
      plan_id: p.json.plan_id,
      actions: [{ action_id: p.json.actions[0].action_id, scheduled_for: '2031-02-17T12:45:00Z' }],
    });
    expectError(r, 422, 'constraint_violation');
    expect(r.json.error.details[0]).toMatchObject({ path: 'actions.0.scheduled_for', rule: 'blocked_slot' });
    expect((await as('GET', `/agent/plans/${p.json.plan_id}`)).json.status).toBe('proposed');
    const ok = await as('POST', '/agent/approve', {
      plan_id: p.json.plan_id,
      actions: [{ action_id: p.json.actions[0].action_id, scheduled_for: '2031-02-17T13:00:00Z' }],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.edited).toBe(true);
  });

  it('per-agent budgets count that agent only', async () => {
    const adj = await as('POST', '/tempo/adjust', { preferences: { budget: { per_day: null, per_agent: { 'noisy-bot': { per_day: 1 } } } } });
    expect(adj.status, adj.text).toBe(200);
    const hdr = { 'x-agent-id': 'noisy-bot' };
    const one = await d.api('POST', '/agent/plan', { key: token, headers: hdr, body: { actions: [event('N1', '2031-02-20T09:00:00Z', 30)] } });
    expect(one.status, one.text).toBe(201);
    expect(one.json.agent_id).toBe('noisy-bot');
    const two = await d.api('POST', '/agent/plan', { key: token, headers: hdr, body: { actions: [event('N2', '2031-02-20T10:00:00Z', 30)] } });
    expectError(two, 422, 'constraint_violation');
    expect(two.json.error.details[0]).toMatchObject({ rule: 'budget_day', agent_id: 'noisy-bot' });
    expect((await as('POST', '/agent/plan', { actions: [event('Mine', '2031-02-20T10:00:00Z', 30)] })).status).toBe(201);
  });
});

describe('scopes and isolation', () => {
  it('an agent key without agent:approve proposes but cannot approve, reject or execute', async () => {
    const key = await mint(['agent:plan'], 'eager-bot');
    const p = await propose({ actions: [event('Bot idea', '2031-01-13T10:00:00Z', 30)] }, key);
    for (const [verb, body] of [
      ['approve', { plan_id: p.plan_id }],
      ['approve', { plan_id: p.plan_id, execute: true }],
      ['reject', { plan_id: p.plan_id }],
      ['execute', { plan_id: p.plan_id }],
    ] as const) {
      expectError(await d.api('POST', `/agent/${verb}`, { body, key }), 403, 'forbidden');
    }
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('proposed');
    // It can read the queue it feeds.
    expect((await d.api('GET', '/agent/queue', { key })).status).toBe(200);
  });

  it('agent:execute may simulate but not execute; keys without agent scopes see no queue; feedback needs memory:write', async () => {
    const p = await propose({ actions: [event('Sim', '2031-01-13T12:00:00Z', 30)] });
    const exec = await mint(['agent:execute']);
    expect((await d.api('POST', '/agent/execute', { key: exec, body: { plan_id: p.plan_id, simulate: true } })).status).toBe(200);
    expectError(await d.api('POST', '/agent/execute', { key: exec, body: { plan_id: p.plan_id } }), 403, 'forbidden');
    const reader = await mint(['memory:read']);
    expectError(await d.api('GET', '/agent/queue', { key: reader }), 403, 'forbidden');
    expectError(await d.api('POST', '/agent/plan', { key: reader, body: { actions: [event('x', '2031-01-13T12:00:00Z', 5)] } }), 403, 'forbidden');
    expectError(await d.api('POST', '/agent/feedback', { key: reader, body: { uid: p.plan_id, rating: 3 } }), 403, 'forbidden');
  });

  it('another user never sees, decides on or rates my plans', async () => {
    const p = await propose({ actions: [event('Private', '2031-01-14T10:00:00Z', 30)] });
    const reg = await d.api('POST', '/user/register', { body: { email: 'other@example.com', password: 'correct horse', display_name: 'O' } });
    expect(reg.status, reg.text).toBe(201);
    const token = (await d.api('POST', '/user/login', { key: null, body: { email: 'other@example.com', password: 'correct horse' } })).json.token;
    const mine = (await d.api('GET', '/agent/queue?status=all', { key: token })).json.plans;
    expect(mine).toEqual([]);
    for (const verb of ['approve', 'reject', 'execute'])
      expectError(await d.api('POST', `/agent/${verb}`, { key: token, body: { plan_id: p.plan_id } }), 403, 'forbidden');
    expectError(await d.api('GET', `/agent/plans/${p.plan_id}`, { key: token }), 403, 'forbidden');
    expectError(await d.api('POST', '/agent/feedback', { key: token, body: { uid: p.plan_id, rating: 1 } }), 403, 'forbidden');
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('proposed');
  });
});

function homeDigest(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(home)) {
    const p = join(home, name);
    if (name === 'daemon.log' || !statSync(p).isFile()) continue;
    out[name] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

describe('simulation and atomic execution', () => {
  it('simulate reports exactly what would change and leaves every store file byte-identical', async () => {
    const created = await d.api('POST', '/calendar/create', { body: { title: 'Review', scheduled_for: '2031-01-15T09:00:00Z', duration_minutes: 30 } });
    const p = await propose({
      task_id: 'sim',
      actions: [
        event('Write report', '2031-01-15T10:00:00Z', 90),
        { kind: 'reschedule_event', event_uid: created.json.uid, scheduled_for: '2031-01-15T14:00:00Z' },
        { kind: 'reflect', content: 'Reports take longer than I think' },
      ],
    });
    await approve(p.plan_id);
    await new Promise((r) => setTimeout(r, 200));
    const before = homeDigest(d.home);
    expect(Object.keys(before)).toContain('db.json');
    const status = (await d.api('GET', '/agent/status')).json;

    const r = await d.api('POST', '/agent/execute', { body: { plan_id: p.plan_id, simulate: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.simulated).toBe(true);
    expect(r.json.plans[0].status).toBe('executed');
    expect(r.json.results.map((x: any) => x.kind)).toEqual(['add_event', 'reschedule_event', 'reflect']);
    expect(r.json.results[1].before.scheduled_for).toBe('2031-01-15T09:00:00.000Z');
    expect(r.json.results[1].event.scheduled_for).toBe('2031-01-15T14:00:00.000Z');
    expect(r.json.log.every((l: any) => l.message.startsWith('(simulated)'))).toBe(true);

    // A proposed plan can be simulated too (as if approved).
    const q = await propose({ actions: [event('Maybe', '2031-01-15T16:00:00Z', 30)] });
    const sq = await d.api('POST', '/agent/execute', { body: { plan_id: q.plan_id, simulate: true } });
    expect(sq.status, sq.text).toBe(200);
    expect(sq.json.log[0].message).toMatch(/would be approved first/);

    await new Promise((r) => setTimeout(r, 200));
    const after = homeDigest(d.home);
    // The proposal of q is the only write since `before`: compare against a digest taken after it.
    expect(after['db.json']).toBe(before['db.json']);
    const s2 = (await d.api('GET', '/agent/status')).json;
    expect(s2.store).toMatchObject({ events: status.store.events, traces: status.store.traces + 1, plans: status.store.plans + 1 });
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('approved');
    const evs = (await d.api('GET', '/calendar/events?start=2031-01-15T00:00:00Z&end=2031-01-16T00:00:00Z')).json.events;
    expect(evs.map((e: any) => [e.title, e.scheduled_for])).toEqual([['Review', '2031-01-15T09:00:00.000Z']]);
  });

  it('a simulation alone writes nothing at all: db.json and the journal are byte-identical', async () => {
    const p = await propose({ actions: [event('Byte check', '2031-01-16T10:00:00Z', 30)] });
    await approve(p.plan_id);
    await new Promise((r) => setTimeout(r, 200));
    const before = homeDigest(d.home);
    for (let i = 0; i < 3; i++) expect((await d.api('POST', '/agent/execute', { body: { plan_id: p.plan_id, simulate: true } })).status).toBe(200);
    expect((await d.api('POST', '/agent/execute', { body: { task_id: p.task_id, simulate: true } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(homeDigest(d.home)).toEqual(before);
  });

  it('one bad action commits nothing: no event, no trace, the plan stays approved', async () => {
    const victim = await d.api('POST', '/calendar/create', { body: { title: 'Will vanish', scheduled_for: '2031-01-17T09:00:00Z', duration_minutes: 30 } });
    const p = await propose({
      task_id: 'atomic',
      actions: [
        event('Good one', '2031-01-17T10:00:00Z', 30),
        { kind: 'reschedule_event', event_uid: victim.json.uid, scheduled_for: '2031-01-17T11:00:00Z' },
        { kind: 'reflect', content: 'never written' },
      ],
    });
    await approve(p.plan_id);
    expect((await d.api('DELETE', `/calendar/remove?uid=${victim.json.uid}`)).status).toBe(200);
    const before = (await d.api('GET', '/agent/status')).json.store;

    const r = await d.api('POST', '/agent/execute', { body: { plan_id: p.plan_id } });
    expectError(r, 409, 'conflict');
    expect(r.json.error.message).toContain(p.actions[1].action_id);
    expect(r.json.error.details[0].path).toMatch(/^plan\.actions\.1/);

    expect((await d.api('GET', '/agent/status')).json.store).toMatchObject({ events: before.events, traces: before.traces, plans: before.plans });
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('approved');
    const evs = (await d.api('GET', '/calendar/events?start=2031-01-17T00:00:00Z&end=2031-01-18T00:00:00Z')).json.events;
    expect(evs).toEqual([]);
    expect((await pull({ task_id: 'atomic', type: 'reflection' })).length).toBe(0);
    // approve + execute together: the approval is undone with the failed execution.
    const q = await propose({
      task_id: 'atomic',
      actions: [
        {
          kind: 'reschedule_event',
          event_uid: (
            await d.api('POST', '/calendar/create', { body: { title: 'Also vanishes', scheduled_for: '2031-01-17T13:00:00Z', duration_minutes: 30 } })
          ).json.uid,
          scheduled_for: '2031-01-17T14:00:00Z',
        },
      ],
    });
    await d.api('DELETE', `/calendar/remove?uid=${q.actions[0].event_uid}`);
    expectError(await d.api('POST', '/agent/approve', { body: { plan_id: q.plan_id, execute: true } }), 409, 'conflict');
    expect((await d.api('GET', `/agent/plans/${q.plan_id}`)).json.status).toBe('proposed');
  });
});

describe('feedback', () => {
  it('on a plan: rating and comment on its agent_plan trace, logged as a trace', async () => {
    const p = await propose({ task_id: 'fb', actions: [event('Team meeting', '2031-01-20T10:00:00Z', 60)] });
    await approve(p.plan_id, { execute: true });
    const r = await d.api('POST', '/agent/feedback', { body: { uid: p.plan_id, rating: 4, comment: 'good slot' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ uid: p.trace_uid, type: 'agent_plan', feedback_rating: 4, notes: 'good slot' });
    const logs = (await pull({ task_id: 'fb', type: 'observation' })).filter((t) => t.linked_trace_ids.includes(p.trace_uid));
    expect(logs).toHaveLength(1);
    expect(logs[0].fields.feedback).toMatchObject({ target_uid: p.trace_uid, plan_id: p.plan_id, rating: 4, comment: 'good slot' });
    // A rating is not an edit of the plan.
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('executed');
  });

  it('a duration revision (and an edited duration at approval) teaches duration_biases', async () => {
    const p = await propose({ task_id: 'fb', actions: [event('Weekly review', '2031-01-21T10:00:00Z', 60)] });
    await approve(p.plan_id, { execute: true });
    const r = await d.api('POST', '/agent/feedback', { body: { uid: p.plan_id, rating: 2, revision: { duration_minutes: 90 } } });
    expect(r.status, r.text).toBe(200);
    const prof = (await d.api('GET', '/tempo/profile')).json;
    expect(prof.duration_biases['weekly review']).toBe(1.25);

    const q = await propose({ task_id: 'fb', actions: [event('Deep work', '2031-01-22T09:00:00Z', 60, { tempo_tag: '@deep-work' })] });
    await approve(q.plan_id, { actions: [{ action_id: q.actions[0].action_id, duration_minutes: 120 }] });
    expect((await d.api('GET', '/tempo/profile')).json.duration_biases['@deep-work']).toBe(1.5);
  });

  it('on a plain trace, with a free-text revision; bad requests are refused clearly', async () => {
    const push = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'fb', content: 'Slept badly' }] } });
    const uid = push.json.saved[0].uid;
    const r = await d.api('POST', '/agent/feedback', { body: { uid, revision: 'it was the coffee' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.uid).toBe(uid);
    expect(r.json.version).toBe(1);
    expectError(await d.api('POST', '/agent/feedback', { body: { uid } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/agent/feedback', { body: { uid, rating: 6 } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/agent/feedback', { body: { uid: 'tr_nope', rating: 3 } }), 404, 'not_found');
    const t = (await pull({ type: 'transition' }))[0];
    expectError(await d.api('POST', '/agent/feedback', { body: { uid: t.uid, rating: 3 } }), 409, 'immutable_trace');
  });
});

describe('queue and documentation', () => {
  it('queue filters by status and task, oldest first; a bad status → 422', async () => {
    const r = await d.api('GET', '/agent/queue?status=all&task_id=move-house');
    expect(r.json.plans.map((p: any) => p.status)).toEqual(['executed', 'executed', 'proposed']);
    const ts = r.json.plans.map((p: any) => p.created_at);
    expect([...ts].sort()).toEqual(ts);
    expectError(await d.api('GET', '/agent/queue?status=maybe'), 422, 'validation_failed');
  });

  it('/agent/status counts plans by state', async () => {
    const s = (await d.api('GET', '/agent/status')).json;
    const all = (await d.api('GET', '/agent/queue?status=all')).json.plans;
    for (const st of ['proposed', 'approved', 'executed', 'rejected', 'edited']) expect(s.queue[st]).toBe(all.filter((p: any) => p.status === st).length);
  });

  it('openapi.json documents every agent endpoint with its request and response schemas', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).json;
    for (const [m, p] of [
      ['post', '/agent/plan'],
      ['post', '/agent/approve'],
      ['post', '/agent/reject'],
      ['post', '/agent/execute'],
      ['post', '/agent/feedback'],
    ]) {
      expect(doc.paths[p][m].requestBody.content['application/json'].schema.properties, `${m} ${p}`).toBeTruthy();
    }
    expect(doc.paths['/agent/queue'].get.responses['200'].content['application/json'].schema.properties.plans).toBeTruthy();
    expect(doc.paths['/agent/plan'].post.requestBody.content['application/json'].schema.properties.actions.items.properties.kind.enum).toEqual([
      'add_event',
      'reflect',
      'reschedule_event',
    ]);
  });
});

describe('after a restart', () => {
  it('the daemon still knows what executed plans produced: editing it moves the plan to edited', async () => {
    const home = tempHome();
    let one = await startDaemon({ home });
    try {
      const p = await one.api('POST', '/agent/plan', { body: { actions: [event('Before restart', '2031-04-01T10:00:00Z', 30)] } });
      expect(p.status, p.text).toBe(201);
      const a = await one.api('POST', '/agent/approve', { body: { plan_id: p.json.plan_id, execute: true } });
      expect(a.status, a.text).toBe(200);
      expect(await one.stop()).toBe(0);
      one = await startDaemon({ home });
      const e = await one.api('PATCH', '/calendar/edit', { body: { uid: a.json.execution.results[0].event.uid, updates: { title: 'After restart' } } });
      expect(e.status, e.text).toBe(200);
      expect((await one.api('GET', `/agent/plans/${p.json.plan_id}`)).json.status).toBe('edited');
    } finally {
      await one.stop();
      removeHome(home);
    }
  });
});
