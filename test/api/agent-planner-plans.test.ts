import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

// Plans the built-in (default) planner makes, through the real daemon: how they read in memory,
// and repetitions as one recurring action that executes into one recurring event.
const d = useDaemon();
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
