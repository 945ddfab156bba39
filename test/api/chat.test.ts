import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
const NOW = '2026-03-02T09:00:00+01:00'; // Monday, Berlin
const context = { now: NOW, timezone: 'Europe/Berlin' };

beforeAll(async () => {
  const r = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin' } } });
  expect(r.status, r.text).toBe(200);
});

const preview = (prompt: string, extra: Record<string, unknown> = {}) => d.api('POST', '/chat/plan-preview', { body: { prompt, context, ...extra } });

async function createEvent(title: string, scheduled_for: string, duration_minutes: number): Promise<string> {
  const r = await d.api('POST', '/calendar/create', { body: { title, scheduled_for, duration_minutes } });
  expect(r.status, r.text).toBe(201);
  return r.json.uid;
}

describe('POST /chat/plan-preview', () => {
  it('returns items with their reasons and commits nothing', async () => {
    const r = await preview('Gym tomorrow 7am for an hour and reflect on the sprint Friday evening');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ provider: 'default', model: null, timezone: 'Europe/Berlin', now: '2026-03-02T08:00:00.000Z', skipped: [] });
    expect(r.json.items).toEqual([
      expect.objectContaining({
        kind: 'event',
        action_kind: 'add_event',
        title: 'Gym',
        scheduled_for: '2026-03-03T06:00:00.000Z',
        end: '2026-03-03T07:00:00.000Z',
        local: 'Tue 2026-03-03 07:00',
        duration_minutes: 60,
        conflicts: [],
        warnings: [],
      }),
      expect.objectContaining({
        kind: 'trace',
        action_kind: 'reflect',
        type: 'reflection',
        title: 'Reflect on the sprint',
        timestamp: '2026-03-06T16:00:00.000Z',
        content: 'Reflection on the sprint.',
      }),
    ]);
    expect(r.json.items[0].reasoning).toMatch(/^Explicit time: "tomorrow 7am"/);
    expect(r.json.items[1].reasoning).toMatch(/^Tag range @evening \(17:00–22:00\) on Fri 2026-03-06/);
    expect(r.json.reply).toMatch(/^Proposed 2 actions/);
    const q = await d.api('GET', '/agent/queue?status=all');
    expect(q.json.plans).toEqual([]);
    const ev = await d.api('GET', '/calendar/events?start=2026-03-01T00:00:00Z&end=2026-04-01T00:00:00Z');
    expect(ev.json.events).toEqual([]);
  });

  it('plans around the calendar, and finds the event a reschedule names', async () => {
    const standup = await createEvent('Standup', '2026-03-03T06:30:00+01:00', 15);
    const dentist = await createEvent('Dentist', '2026-03-03T15:00:00+01:00', 45);
    try {
      const free = await preview('Write blog post tomorrow @morning for 3 hours');
      expect(free.json.items[0]).toMatchObject({ local: 'Tue 2026-03-03 06:45', tempo_tag: '@morning' });
      expect(free.json.items[0].reasoning).toContain('After the named conflicts "Standup" 06:30–06:45');
      const move = await preview('Move my dentist appointment to Thursday 10am');
      expect(move.json.items).toEqual([
        expect.objectContaining({
          kind: 'event',
          action_kind: 'reschedule_event',
          event_uid: dentist,
          title: 'Dentist',
          scheduled_for: '2026-03-05T09:00:00.000Z',
          duration_minutes: 45,
        }),
      ]);
      const over = await preview('Coffee with Lena tomorrow at 06:35');
      expect(over.json.items[0].conflicts).toEqual([standup]);
    } finally {
      await d.api('DELETE', `/calendar/remove?uid=${standup}`);
      await d.api('DELETE', `/calendar/remove?uid=${dentist}`);
    }
  });

  it('context.calendar adds busy time; context.now and timezone fix the reference', async () => {
    const r = await preview('Run tomorrow morning', {
      context: { ...context, calendar: [{ title: 'Flight', scheduled_for: '2026-03-03T06:00:00+01:00', duration_minutes: 180 }] },
    });
    expect(r.json.items[0].local).toBe('Tue 2026-03-03 09:00');
    const ny = await d.api('POST', '/chat/plan-preview', {
      body: { prompt: 'Dentist tomorrow at 3pm', context: { now: '2026-03-07T12:00:00-05:00', timezone: 'America/New_York' } },
    });
    expect(ny.json.items[0].scheduled_for).toBe('2026-03-08T19:00:00.000Z'); // 15:00 EDT, the first day of summer time
  });

  it('says why when there is nothing to schedule', async () => {
    const r = await preview('hello, how are you doing today?');
    expect(r.status).toBe(200);
    expect(r.json.items).toEqual([]);
    expect(r.json.reply).toMatch(/^Nothing to schedule/);
  });

  it('refuses bad input with a structured error', async () => {
    expectError(await d.api('POST', '/chat/plan-preview', { body: {} }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: '   ' } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym', extra: 1 } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym', context: { timezone: 'Mars/Olympus' } } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym', context: { now: 'tomorrow' } } }), 422, 'validation_failed');
    expectError(await d.api('POST', '/chat/plan-preview', { raw: '{"prompt":', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym' }, key: null }), 401, 'unauthorized');
  });

  it('needs the agent:plan scope', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['memory:read'] } });
    expect(k.status, k.text).toBe(201);
    expectError(await d.api('POST', '/chat/plan-preview', { body: { prompt: 'gym tomorrow at 7' }, key: k.json.key }), 403, 'forbidden');
    expectError(await d.api('POST', '/chat/respond', { body: { prompt: 'gym tomorrow at 7' }, key: k.json.key }), 403, 'forbidden');
  });
});

describe('POST /agent/plan from a prompt', () => {
  it('the planner proposes; the plan records the provider', async () => {
    const r = await d.api('POST', '/agent/plan', { body: { prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes', context } });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      status: 'proposed',
      provider: 'default',
      model: null,
      task_id: 'dentist-appointment',
      prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes',
    });
    expect(r.json.actions).toEqual([
      expect.objectContaining({
        kind: 'add_event',
        title: 'Dentist appointment',
        scheduled_for: '2026-03-10T14:00:00.000Z',
        duration_minutes: 45,
        status: 'proposed',
      }),
    ]);
    expect(r.json.reasoning).toContain('Dentist appointment — explicit time, Tue 2026-03-10 15:00');
    await d.api('POST', '/agent/reject', { body: { plan_id: r.json.plan_id } });
  });

  it('nothing to schedule → 422 plan_invalid saying why', async () => {
    const r = await d.api('POST', '/agent/plan', { body: { prompt: 'asdf qwerty zxcv', context } });
    expectError(r, 422, 'plan_invalid');
    expect(r.json.error.message).toMatch(/^Nothing to schedule: I could not read a task/);
  });
});

describe('POST /chat/respond', () => {
  it('a scheduling prompt puts a plan in the queue and lists the next commands', async () => {
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'Gym tomorrow at 7am for an hour', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.intent).toBe('plan');
    expect(r.json.plan).toMatchObject({
      status: 'proposed',
      provider: 'default',
      actions: [expect.objectContaining({ title: 'Gym', scheduled_for: '2026-03-03T06:00:00.000Z' })],
    });
    expect(r.json.reply).toContain(`Plan ${r.json.plan.plan_id} is waiting for your approval`);
    expect(r.json.commands[0]).toEqual({
      label: 'approve and execute',
      cli: `kairos approve ${r.json.plan.plan_id} --execute`,
      method: 'POST',
      path: '/agent/approve',
      body: { plan_id: r.json.plan.plan_id, execute: true },
    });
    expect(r.json.proposed_traces).toEqual([]);
    const q = await d.api('GET', '/agent/queue');
    expect(q.json.plans.map((p: { plan_id: string }) => p.plan_id)).toContain(r.json.plan.plan_id);
    await d.api('POST', '/agent/reject', { body: { plan_id: r.json.plan.plan_id } });
  });

  it('a note becomes proposed traces, not saved', async () => {
    const before = await d.api('GET', '/memory/pull?type=observation');
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'Note: slept badly, too much coffee after 4pm', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.intent).toBe('note');
    expect(r.json.plan).toBeUndefined();
    expect(r.json.proposed_traces).toEqual([
      { type: 'observation', task_id: 'slept-badly', content: 'Slept badly, too much coffee after 4pm', timestamp: '2026-03-02T08:00:00.000Z', importance: 3 },
    ]);
    expect(r.json.commands[0]).toMatchObject({ method: 'POST', path: '/memory/push', body: { traces: r.json.proposed_traces } });
    const after = await d.api('GET', '/memory/pull?type=observation');
    expect(after.json.traces.length).toBe(before.json.traces.length);
    // The proposed traces are exactly what /memory/push takes.
    const saved = await d.api('POST', '/memory/push', { body: r.json.commands[0].body });
    expect(saved.status, saved.text).toBe(201);
  });

  it('a question about the past is answered from memory search, with the uids it used', async () => {
    const push = await d.api('POST', '/memory/push', {
      body: { traces: [{ type: 'observation', task_id: 'running', content: 'Ran 10 km along the river in 55 minutes', timestamp: '2026-02-27T07:00:00Z' }] },
    });
    expect(push.status, push.text).toBe(201);
    const uid = push.json.saved[0].uid;
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'When did I last go for a run along the river?', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.intent).toBe('question');
    expect(r.json.sources[0].uid).toBe(uid);
    expect(r.json.used_uids).toContain(uid);
    expect(r.json.reply).toContain('2026-02-27 (observation): Ran 10 km along the river');
    expect(r.json.plan).toBeUndefined();
    const none = await d.api('POST', '/chat/respond', { body: { prompt: 'What did I say about the zeppelin?', context } });
    expect(none.json).toMatchObject({ intent: 'question', sources: [], used_uids: [] });
    expect(none.json.reply).toMatch(/^I found nothing in your memory/);
  });

  it('chit-chat gets a reply and nothing else', async () => {
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'thanks, that is all for now', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ intent: 'none', proposed_traces: [] });
    expect(r.json.reply).toMatch(/^Nothing to schedule/);
  });

  it('a plan the constraints refuse is explained, not an error', async () => {
    const adj = await d.api('POST', '/tempo/adjust', { body: { user_id: d.userId, preferences: { cadence: { add_event: { max: 0, per: 'day' } } } } });
    expect(adj.status, adj.text).toBe(200);
    try {
      const r = await d.api('POST', '/chat/respond', { body: { prompt: 'Call the bank tomorrow at 12:15', context } });
      expect(r.status, r.text).toBe(200);
      expect(r.json.intent).toBe('none');
      expect(r.json.reply).toMatch(/cannot be proposed: .*cadence|cannot be proposed: .*at most/);
    } finally {
      await d.api('POST', '/tempo/adjust', { body: { user_id: d.userId, preferences: { cadence: {} } } });
    }
  });
});

describe('POST /chat/respond: a question about free time', () => {
  it("answers from the calendar with the day's free time, not from memory", async () => {
    // Tuesday 2031-04-15, Berlin (UTC+2): Review 10:00–12:00.
    const review = await createEvent('Review', '2031-04-15T10:00:00+02:00', 120);
    try {
      const r = await d.api('POST', '/chat/respond', { body: { prompt: 'When am I free on 2031-04-15 for 2h?', context } });
      expect(r.status, r.text).toBe(200);
      expect(r.json.intent).toBe('free');
      expect(r.json.free).toMatchObject({ date: '2031-04-15', timezone: 'Europe/Berlin', duration_minutes: 120 });
      const slots = r.json.free.slots.map((s: { start: string; end: string }) => [s.start, s.end]);
      expect(slots).toContainEqual(['2031-04-15T10:00:00.000Z', '2031-04-15T20:00:00.000Z']);
      for (const [start, end] of slots) expect(end <= '2031-04-15T08:00:00.000Z' || start >= '2031-04-15T10:00:00.000Z').toBe(true);
      expect(r.json.reply).toContain('Free on 2031-04-15 (Europe/Berlin) for 120 minutes or more');
      expect(r.json.reply).toContain('12:00–22:00');
      expect(r.json.commands[0]).toMatchObject({ method: 'GET', path: '/calendar/free?date=2031-04-15&duration_minutes=120' });
      expect(r.json.sources).toBeUndefined();
    } finally {
      await d.api('DELETE', `/calendar/remove?uid=${review}`);
    }
  });

  it("reads the day in words in the person's zone, and a gap of 30 minutes when none is named", async () => {
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'any free time tomorrow?', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ intent: 'free', free: { date: '2026-03-03', duration_minutes: 30 } });
  });

  it('needs calendar:read as well as agent:plan', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'planner only', scopes: ['agent:plan', 'memory:read'] } });
    expect(k.status, k.text).toBe(201);
    expectError(await d.api('POST', '/chat/respond', { body: { prompt: 'when am I free tomorrow?', context }, key: k.json.key }), 403, 'forbidden');
  });
});

describe('the OpenAPI document', () => {
  it('describes both chat endpoints with their schemas', async () => {
    const r = await d.api('GET', '/openapi.json', { key: null });
    for (const path of ['/chat/plan-preview', '/chat/respond']) {
      const op = r.json.paths[path].post;
      expect(op.requestBody.content['application/json'].schema).toBeTypeOf('object');
      expect(op.responses['200']).toBeDefined();
    }
  });
});
