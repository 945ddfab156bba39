import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';

const d = useApp({ DEBUG: 'true' });
beforeAll(async () => {
  const base = { timestamp: '2031-02-03T09:00:00Z', content: 'x' };
  const r = await d.api('POST', '/memory/push', {
    body: {
      traces: [
        { ...base, uid: 'goal', type: 'goal', task_id: 'trip', content: 'Visit Lisbon' },
        { ...base, uid: 'step-1', type: 'calendar_event', task_id: 'trip', linked_event_uid: 'ev_flight' },
        { ...base, uid: 'step-2', type: 'observation', task_id: 'trip-notes' },
        { ...base, uid: 'plan', type: 'agent_plan', task_id: 'trip', linked_trace_ids: ['goal'], child_trace_ids: ['step-1', 'step-2'] },
        { ...base, uid: 'after', type: 'reflection', task_id: 'trip-notes', linked_trace_ids: ['plan'] },
        { ...base, uid: 'unrelated', type: 'observation', task_id: 'groceries' },
      ],
    },
  });
  expect(r.status, r.text).toBe(201);
});

const dump = (body: Record<string, unknown>, key?: string) => d.api('POST', '/debug/trace-dump', { body, key });
const uids = (r: { json: { traces: { uid: string }[] } }) => r.json.traces.map((t) => t.uid).sort();

describe('POST /debug/trace-dump (DEBUG=true)', () => {
  it('a trace with its causal links both ways, and the profile', async () => {
    const r = await dump({ trace_uid: 'plan' });
    expect(r.status, r.text).toBe(200);
    expect(uids(r)).toEqual(['after', 'goal', 'plan', 'step-1', 'step-2']);
    expect(r.json.links).toEqual(
      expect.arrayContaining([
        { from: 'plan', to: 'goal', kind: 'linked_trace' },
        { from: 'plan', to: 'step-1', kind: 'child_trace' },
        { from: 'plan', to: 'step-2', kind: 'child_trace' },
        { from: 'after', to: 'plan', kind: 'linked_trace' },
        { from: 'step-1', to: 'ev_flight', kind: 'linked_event' },
      ]),
    );
    expect(r.json.links).toHaveLength(5);
    expect(r.json.traces.find((t: any) => t.uid === 'plan')).toMatchObject({ type: 'agent_plan', version: 1, authored_by: d.userId });
    expect(r.json.profile).toMatchObject({ user_id: d.userId });
    expect(typeof r.json.profile.timezone).toBe('string');
  });

  it('following links backwards from a leaf reaches the whole chain', async () => {
    expect(uids(await dump({ trace_uid: 'step-2' }))).toEqual(['after', 'goal', 'plan', 'step-1', 'step-2']);
    expect(uids(await dump({ trace_uid: 'unrelated' }))).toEqual(['unrelated']);
  });

  it('by task_id and by linked_event_uid', async () => {
    expect(uids(await dump({ task_id: 'groceries' }))).toEqual(['unrelated']);
    expect(uids(await dump({ linked_event_uid: 'ev_flight' }))).toContain('step-1');
  });

  it('exactly one selector; unknown → 404; another user → 403', async () => {
    expect((await dump({})).status).toBe(422);
    expect((await dump({ trace_uid: 'plan', task_id: 'trip' })).status).toBe(422);
    expect((await dump({ trace_uid: 'ghost' })).json.error.code).toBe('not_found');
    expect((await dump({ task_id: 'no-such-task' })).status).toBe(404);
    const reg = await d.api('POST', '/user/register', { body: { email: 'mallory@example.com', password: 'correct horse', display_name: 'm' } });
    expect(reg.status).toBe(201);
    const token = (await d.api('POST', '/user/login', { key: null, body: { email: 'mallory@example.com', password: 'correct horse' } })).json.token;
    expect((await dump({ trace_uid: 'plan' }, token)).status).toBe(403);
    expect((await dump({ task_id: 'trip' }, token)).status).toBe(404);
  });
});
