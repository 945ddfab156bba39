import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

// POST /agent/approve with the actions as an agent builds them: the plan's own Action objects,
// edited (`{...action, title: "new"}`), next to the partial edits `{action_id, field}`.
const d = useApp();

beforeAll(async () => {
  const r = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
  expect(r.status, r.text).toBe(200);
});

let n = 0;
/** A proposed plan of two actions, read back as a client would (GET), with a conflict on the first. */
async function proposed() {
  n++;
  const day = `2031-02-${String(10 + n).padStart(2, '0')}`;
  const ev = await d.api('POST', '/calendar/create', { body: { title: `Busy ${n}`, scheduled_for: `${day}T09:30:00Z`, duration_minutes: 30 } });
  expect(ev.status, ev.text).toBe(201);
  const p = await d.api('POST', '/agent/plan', {
    body: {
      task_id: `t${n}`,
      actions: [
        {
          kind: 'add_event',
          title: 'Write report',
          scheduled_for: `${day}T09:00:00Z`,
          duration_minutes: 60,
          tempo_tag: '@morning',
          reasoning: 'free',
          confidence: 0.7,
        },
        { kind: 'reflect', content: 'How did the week go?', scheduled_for: `${day}T17:00:00Z` },
      ],
    },
  });
  expect(p.status, p.text).toBe(201);
  const got = await d.api('GET', `/agent/plans/${p.json.plan_id}`);
  expect(got.json.actions[0].conflicts).toEqual([ev.json.uid]);
  return got.json;
}

const approve = (body: Record<string, unknown>) => d.api('POST', '/agent/approve', { body });

describe('approve with whole Action objects', () => {
  it('takes {...action, title: "new"}: the changed field is applied, the unchanged read-only fields ignored', async () => {
    const p = await proposed();
    const [a, b] = p.actions;
    const r = await approve({ plan_id: p.plan_id, execute: true, actions: [{ ...a, title: 'Write the report' }, b] });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'executed', edited: true });
    expect(r.json.actions[0]).toMatchObject({ title: 'Write the report', edited: true, original: { title: 'Write report' } });
    expect(r.json.actions[1].edited).toBeUndefined();
    expect(r.json.execution.results.map((x: any) => x.event?.title ?? x.trace.content)).toEqual(['Write the report', 'How did the week go?']);
  });

  it('takes the actions sent back unchanged: approved, not edited', async () => {
    const p = await proposed();
    const r = await approve({ plan_id: p.plan_id, actions: p.actions });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'approved', edited: false });
  });

  it('mixes whole objects and partial edits; status "rejected" in a whole object leaves the action out', async () => {
    const p = await proposed();
    const [a, b] = p.actions;
    const r = await approve({
      plan_id: p.plan_id,
      actions: [
        { action_id: a.action_id, duration_minutes: 45 },
        { ...b, status: 'rejected' },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.actions.map((x: any) => [x.status, x.duration_minutes])).toEqual([
      ['approved', 45],
      ['rejected', 0],
    ]);
  });

  it.each([
    ['kind', 'reschedule_event'],
    ['confidence', 0.99],
    ['reasoning', 'I changed my mind'],
    ['estimate_minutes', 5],
    ['event_uid', 'ev_0000000000000000000000000'],
    ['conflicts', []],
    ['edited', true],
  ])('a changed read-only field (%s) → 422 naming it, and the plan stays proposed', async (field, value) => {
    const p = await proposed();
    const [a] = p.actions;
    const r = await approve({ plan_id: p.plan_id, actions: [{ ...a, title: 'Renamed', [field]: value }] });
    expectError(r, 422, 'validation_failed');
    expect(r.json.error.details).toEqual([expect.objectContaining({ path: `actions.0.${field}`, message: expect.stringContaining(`${field} is read-only`) })]);
    expect(r.json.error.message).toContain(field);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json).toMatchObject({ status: 'proposed', edited: false });
  });

  it('a status other than "rejected" → 422 naming status; an unknown key is still refused', async () => {
    const p = await proposed();
    const [a] = p.actions;
    const bad = await approve({ plan_id: p.plan_id, actions: [{ ...a, status: 'executed' }] });
    expectError(bad, 422, 'validation_failed');
    expect(bad.json.error.details[0].path).toBe('actions.0.status');
    const unknown = await approve({ plan_id: p.plan_id, actions: [{ ...a, colour: 'red' }] });
    expectError(unknown, 422, 'validation_failed');
    expect(unknown.text).toContain('colour');
  });

  it('partial edits keep working, and an edit naming nothing is refused', async () => {
    const p = await proposed();
    const ok = await approve({ plan_id: p.plan_id, actions: [{ action_id: p.actions[0].action_id, tempo_tag: null }] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.actions[0].tempo_tag).toBeUndefined();
    const q = await proposed();
    expectError(await approve({ plan_id: q.plan_id, actions: [{ action_id: q.actions[0].action_id }] }), 422, 'validation_failed');
  });
});
