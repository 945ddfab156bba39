import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';

// Plans the built-in (default) planner makes, through the real daemon: how they read in memory,
// and repetitions as one recurring action that executes into one recurring event.
const d = useApp();
const NOW = '2031-03-03T08:00:00+01:00'; // a Monday, Europe/Berlin

beforeAll(async () => {
  const r = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin' } } });
  expect(r.status, r.text).toBe(200);
});

async function plan(prompt: string) {
  const r = await d.api('POST', '/agent/plan', { body: { prompt, context: { now: NOW } } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

describe('the summary of a plan by the default planner', () => {
  it('names the planner, not the user id', async () => {
    const p = await plan('Dentist on 2031-03-11 at 3pm for 45 minutes');
    const trace = await d.api('GET', `/memory/pull?type=agent_plan&limit=100`);
    const t = trace.json.traces.find((x: { uid: string }) => x.uid === p.trace_uid);
    expect(t.content).toMatch(/^The default planner proposed plan pl_/);
    expect(t.content).not.toContain(d.userId);
    const s = await d.api('POST', '/chat/trace-summary', { body: { trace_ids: [p.trace_uid] } });
    expect(s.status, s.text).toBe(200);
    expect(s.json.summaries[0].summary).toMatch(/^The default planner proposed/);
    expect(s.json.summaries[0].summary).not.toMatch(/^usr_/);
  });

  it('an agent’s own actions still name the agent', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'bot', scopes: ['agent:plan', 'memory:read'], agent_id: 'bot-1' } });
    expect(k.status, k.text).toBe(201);
    const r = await d.api('POST', '/agent/plan', {
      key: k.json.key,
      body: { actions: [{ kind: 'add_event', title: 'Swim', scheduled_for: '2031-03-12T07:00:00Z', duration_minutes: 30 }] },
    });
    expect(r.status, r.text).toBe(201);
    const t = await d.api('GET', `/memory/pull?type=agent_plan&limit=100`);
    expect(t.json.traces.find((x: { uid: string }) => x.uid === r.json.trace_uid).content).toMatch(/^Agent bot-1 proposed plan/);
  });
});

describe('a repetition is one recurring event', () => {
  it('"gym every monday and thursday at 7am for an hour" → one action with an RRULE → one recurring event at 07:00 Berlin time', async () => {
    const pv = await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym every monday and thursday at 7am for an hour', context: { now: NOW } } });
    expect(pv.status, pv.text).toBe(200);
    expect(pv.json.items).toHaveLength(1);
    expect(pv.json.items[0]).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', duration_minutes: 60 });
    const p = await plan('gym every monday and thursday at 7am for an hour');
    expect(p.actions).toHaveLength(1);
    expect(p.actions[0]).toMatchObject({ kind: 'add_event', title: 'Gym', rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', duration_minutes: 60 });
    const r = await d.api('POST', '/agent/approve', { body: { plan_id: p.plan_id, execute: true } });
    expect(r.status, r.text).toBe(200);
    const ev = r.json.execution.results[0].event;
    expect(ev).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', timezone: 'Europe/Berlin', source: 'agent' });
    const list = await d.api('GET', `/calendar/events?start=2031-03-23T00:00:00Z&end=2031-04-04T00:00:00Z`);
    const gym = list.json.events.filter((e: { occurrence_of?: string }) => e.occurrence_of === ev.uid).map((e: { scheduled_for: string }) => e.scheduled_for);
    // 07:00 in Berlin before and after the change to summer time on 30 March 2031.
    expect(gym).toEqual(['2031-03-24T06:00:00.000Z', '2031-03-27T06:00:00.000Z', '2031-03-31T05:00:00.000Z', '2031-04-03T05:00:00.000Z']);
  });

  it('an agent’s rrule is checked like /calendar/create’s, and only an add_event repeats', async () => {
    const bad = await d.api('POST', '/agent/plan', {
      body: { actions: [{ kind: 'add_event', title: 'X', scheduled_for: '2031-03-12T07:00:00Z', duration_minutes: 30, rrule: 'EVERYWEEKDAY' }] },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.json.error.code).toBe('plan_invalid');
    expect(bad.json.error.details[0].path).toBe('actions.0.rrule');
    const reflect = await d.api('POST', '/agent/plan', { body: { actions: [{ kind: 'reflect', content: 'x', rrule: 'FREQ=DAILY' }] } });
    expect(reflect.status, reflect.text).toBe(422);
    expect(reflect.json.error.details[0].path).toBe('actions.0.rrule');
  });

  it('an impossible time is refused with the reason (422), not turned into a title', async () => {
    const r = await d.api('POST', '/agent/plan', { body: { prompt: 'gym tomorrow at 25:00', context: { now: NOW } } });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toContain('"25:00" is not a time of day');
  });
});
