import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

const d = useDaemon();
let other: { userId: string; key: string };
let readOnlyKey: string;

beforeAll(async () => {
  const reg = await d.api('POST', '/user/register', {
    body: { email: 'ada@example.com', password: 'correct horse battery', display_name: 'Ada', timezone: 'America/New_York' },
  });
  expect(reg.status).toBe(201);
  const key = await d.api('POST', '/auth/keys', { body: { name: 'ada', scopes: ['tempo:read', 'tempo:write', 'memory:write'], user_id: reg.json.user_id } });
  expect(key.status).toBe(201);
  other = { userId: reg.json.user_id, key: key.json.key };
  const ro = await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['tempo:read'] } });
  readOnlyKey = ro.json.key;
});

const adjust = (preferences: unknown, opts: { key?: string; user_id?: string } = {}) =>
  d.api('POST', '/tempo/adjust', { body: { user_id: opts.user_id ?? d.userId, preferences }, key: opts.key });

describe('GET /tempo/profile', () => {
  it('gives a fresh user the default ranges, no constraints and their own time zone', async () => {
    const r = await d.api('GET', `/tempo/profile?user_id=${other.userId}`, { key: other.key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      user_id: other.userId,
      timezone: 'America/New_York',
      time_ranges: {
        '@morning': { start: '06:00', end: '12:00' },
        '@afternoon': { start: '12:00', end: '17:00' },
        '@evening': { start: '17:00', end: '22:00' },
        '@night': { start: '22:00', end: '06:00' },
        '@work': { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      },
      tag_mappings: {},
      duration_biases: {},
      blocked: [],
      cadence: {},
      budget: {},
    });
  });

  it("defaults to the caller's profile and follows PATCH /user/update for the zone", async () => {
    const u = await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Europe/Berlin' } } });
    expect(u.status).toBe(200);
    const r = await d.api('GET', '/tempo/profile');
    expect(r.json).toMatchObject({ user_id: d.userId, timezone: 'Europe/Berlin' });
  });
});

describe('POST /tempo/adjust', () => {
  it('merges a partial update and returns the profile', async () => {
    const r = await adjust({
      time_ranges: { '@Gym': { start: '6:30', end: '08:00', days: ['mon', 'Wednesday', 'fri'] }, '@night': null },
      tag_mappings: { gym: '@gym' },
      duration_biases: { meeting: 1.25 },
      blocked: [{ start: '12:00', end: '13:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], label: 'lunch' }],
      cadence: { reflect: { max: 1, per: 'day' }, reschedule_event: { max: 2, per: 'week', per_event: true } },
      budget: { per_day: 10, per_week: 40, per_agent: { scout: { per_day: 3 } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.time_ranges['@gym']).toEqual({ start: '06:30', end: '08:00', days: ['mon', 'wed', 'fri'] });
    expect(r.json.time_ranges['@night']).toBeUndefined();
    expect(r.json.time_ranges['@morning']).toEqual({ start: '06:00', end: '12:00' });
    expect(r.json).toMatchObject({
      user_id: d.userId,
      timezone: 'Europe/Berlin',
      tag_mappings: { gym: '@gym' },
      duration_biases: { meeting: 1.25 },
      blocked: [{ start: '12:00', end: '13:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], label: 'lunch' }],
      cadence: { reflect: { max: 1, per: 'day' }, reschedule_event: { max: 2, per: 'week', per_event: true } },
      budget: { per_day: 10, per_week: 40, per_agent: { scout: { per_day: 3 } } },
    });

    const second = await adjust({
      budget: { per_day: null, per_agent: { scout: { per_week: 9 } } },
      cadence: { reflect: null },
      tag_mappings: { taxes: '@afternoon' },
    });
    expect(second.json.budget).toEqual({ per_week: 40, per_agent: { scout: { per_day: 3, per_week: 9 } } });
    expect(second.json.cadence).toEqual({ reschedule_event: { max: 2, per: 'week', per_event: true } });
    expect(second.json.tag_mappings).toEqual({ gym: '@gym', taxes: '@afternoon' });
    expect(second.json.blocked).toHaveLength(1);

    const read = await d.api('GET', '/tempo/profile');
    expect(read.json).toEqual(second.json);
  });

  it('stores one-off blocked slots in UTC and replaces the blocked list', async () => {
    const r = await adjust({ blocked: [{ start: '2031-06-02T14:00:00+02:00', end: '2031-06-02T15:00:00+02:00', label: 'dentist' }] });
    expect(r.json.blocked).toEqual([{ start: '2031-06-02T12:00:00.000Z', end: '2031-06-02T13:00:00.000Z', label: 'dentist' }]);
  });

  it('adds and removes blocks in one step, so changes sent at the same moment are all kept', async () => {
    await adjust({ blocked: [] });
    const lunch = { start: '12:00', end: '13:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], label: 'lunch' };
    const once = (h: number) => ({ start: `2031-07-0${h}T09:00:00Z`, end: `2031-07-0${h}T10:00:00Z` });
    // Ten clients each add one block at once: with read-modify-write, most would be lost.
    const adds = await Promise.all([lunch, ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(once)].map((b) => adjust({ blocked_add: [b] })));
    for (const r of adds) expect(r.status, r.text).toBe(200);
    const all = (await d.api('GET', '/tempo/profile')).json.blocked;
    expect(all).toHaveLength(10);
    // Removal matches by value after the same normalization ("9:00" is 09:00, offsets become UTC);
    // a block that is not there is ignored; adding one already there does not repeat it.
    const r = await adjust({
      blocked_remove: [
        { start: '2031-07-01T11:00:00+02:00', end: '2031-07-01T12:00:00+02:00' },
        { start: '1:00', end: '2:00' },
      ],
      blocked_add: [lunch],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.blocked).toHaveLength(9);
    expect(r.json.blocked).not.toContainEqual({ start: '2031-07-01T09:00:00.000Z', end: '2031-07-01T10:00:00.000Z' });
    expect(r.json.blocked.filter((b: { label?: string }) => b.label === 'lunch')).toHaveLength(1);
    await adjust({ blocked: [] });
  });

  it('answers an empty update with the profile, unchanged', async () => {
    const before = await d.api('GET', '/tempo/profile');
    const r = await adjust({});
    expect(r.status).toBe(200);
    expect(r.json).toEqual(before.json);
  });

  it.each([
    ['a malformed tag in a mapping', { tag_mappings: { gym: 'Morning!!' } }, 'invalid_tempo_tag', 'preferences.tag_mappings.gym'],
    ['a malformed range label', { time_ranges: { 'deep work': { start: '09:00', end: '11:00' } } }, 'invalid_tempo_tag', 'preferences.time_ranges.deep work'],
    ['an impossible wall time', { time_ranges: { '@focus': { start: '09:00', end: '25:00' } } }, 'validation_failed', 'preferences.time_ranges.@focus.end'],
    [
      'a one-off block ending before it starts',
      { blocked: [{ start: '2031-06-02T13:00:00Z', end: '2031-06-02T12:00:00Z' }] },
      'validation_failed',
      'preferences.blocked.0.end',
    ],
    ['a cadence for an unknown action kind', { cadence: { email: { max: 1, per: 'day' } } }, 'validation_failed', 'preferences.cadence'],
    ['a negative budget', { budget: { per_week: -1 } }, 'validation_failed', 'preferences.budget.per_week'],
    ['the time zone', { timezone: 'UTC' }, 'validation_failed', 'preferences.timezone'],
    ['a whole list together with changes to it', { blocked: [], blocked_add: [{ start: '12:00', end: '13:00' }] }, 'validation_failed', 'preferences.blocked'],
    [
      'a block to add ending before it starts',
      { blocked_add: [{ start: '2031-06-02T13:00:00Z', end: '2031-06-02T12:00:00Z' }] },
      'validation_failed',
      'preferences.blocked_add.0.end',
    ],
  ])('refuses %s with 422 and changes nothing', async (_name, preferences, code, path) => {
    const before = await d.api('GET', '/tempo/profile');
    const r = await adjust(preferences);
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe(code);
    expect(r.json.error.details.map((x: { path: string }) => x.path)).toContain(path);
    expect((await d.api('GET', '/tempo/profile')).json).toEqual(before.json);
  });

  it('refuses a body without preferences, and a body that is not JSON', async () => {
    const r = await d.api('POST', '/tempo/adjust', { body: { user_id: d.userId } });
    expect(r.status).toBe(422);
    expect(r.json.error.details[0].path).toBe('preferences');
    const bad = await d.api('POST', '/tempo/adjust', { raw: '{"preferences": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
  });
});

describe('GET /tempo/tags', () => {
  it('lists the built-ins and the tags of the profile', async () => {
    const r = await d.api('GET', '/tempo/tags', { key: other.key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(['@afternoon', '@evening', '@morning', '@night', '@work', '25m', '50m', '90m']);
    const mine = await d.api('GET', '/tempo/tags');
    expect(mine.json).toEqual(expect.arrayContaining(['@gym', '@afternoon']));
  });

  it("adds the tags of the user's traces, and only theirs", async () => {
    const push = await d.api('POST', '/memory/push', {
      key: other.key,
      body: {
        traces: ['@deep-work', '1H30M'].map((t) => ({
          type: 'observation',
          task_id: 'tempo-tags',
          timestamp: '2031-02-03T09:00:00Z',
          content: 'x',
          tempo_tag: t,
        })),
      },
    });
    expect(push.status).toBe(201);
    const r = await d.api('GET', '/tempo/tags', { key: other.key });
    expect(r.json).toEqual(['@afternoon', '@deep-work', '@evening', '@morning', '@night', '@work', '25m', '50m', '1h30m', '90m']);
    expect((await d.api('GET', '/tempo/tags')).json).not.toContain('@deep-work');
  });
});

describe('isolation and scopes', () => {
  it("refuses another user's profile, tags and adjustments with 403", async () => {
    for (const r of [
      await d.api('GET', `/tempo/profile?user_id=${d.userId}`, { key: other.key }),
      await d.api('GET', `/tempo/tags?user_id=${d.userId}`, { key: other.key }),
      await adjust({ budget: { per_day: 0 } }, { key: other.key, user_id: d.userId }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('forbidden');
    }
    expect((await d.api('GET', '/tempo/profile')).json.budget.per_day).toBeUndefined();
  });

  it('lets the admin read and adjust another user, and answers 404 for a user that does not exist', async () => {
    const r = await adjust({ tag_mappings: { run: '@evening' } }, { user_id: other.userId });
    expect(r.status).toBe(200);
    expect((await d.api('GET', '/tempo/profile', { key: other.key })).json.tag_mappings).toEqual({ run: '@evening' });
    expect((await d.api('GET', '/tempo/profile?user_id=usr_nobody')).status).toBe(404);
    expect((await adjust({}, { user_id: 'usr_nobody' })).status).toBe(404);
  });

  it('needs tempo:write to adjust and tempo:read to read', async () => {
    expect((await d.api('GET', '/tempo/profile', { key: readOnlyKey })).status).toBe(200);
    const w = await adjust({ budget: { per_day: 1 } }, { key: readOnlyKey });
    expect(w.status).toBe(403);
    expect(w.json.error.message).toMatch(/tempo:write/);
    const mem = await d.api('POST', '/auth/keys', { body: { name: 'mem', scopes: ['memory:read'] } });
    expect((await d.api('GET', '/tempo/tags', { key: mem.json.key })).status).toBe(403);
    expect((await d.api('GET', '/tempo/tags', { key: null })).status).toBe(401);
  });
});

describe('the user profile and the store', () => {
  it('carries the tempo settings and the constraints in GET /user/profile', async () => {
    const t = (await d.api('GET', '/tempo/profile')).json;
    const u = await d.api('GET', '/user/profile');
    expect(u.json.tempo).toEqual({ time_ranges: t.time_ranges, tag_mappings: t.tag_mappings, duration_biases: t.duration_biases });
    expect(u.json.constraints).toEqual({ blocked: t.blocked, cadence: t.cadence, budget: t.budget });
  });

  it('documents the three endpoints in /openapi.json', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).json;
    expect(doc.paths['/tempo/tags'].get.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(doc.paths['/tempo/profile'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['user_id']);
    expect(Object.keys(doc.paths['/tempo/adjust'].post.requestBody.content['application/json'].schema.properties.preferences.properties)).toEqual(
      expect.arrayContaining(['time_ranges', 'tag_mappings', 'duration_biases', 'blocked', 'cadence', 'budget']),
    );
  });

  it('keeps an acknowledged adjustment across a SIGKILL', async () => {
    const r = await adjust({ duration_biases: { review: { minutes: 20 } } });
    expect(r.status).toBe(200);
    await d.restart('SIGKILL');
    expect((await d.api('GET', '/tempo/profile')).json.duration_biases).toEqual({ meeting: 1.25, review: { minutes: 20 } });
  });
});
