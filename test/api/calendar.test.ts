import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

beforeAll(async () => {
  // A zone with DST, so wall-clock behaviour is visible.
  expect((await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Europe/Berlin' } } })).status).toBe(200);
});

const create = (body: Record<string, unknown>, key?: string) =>
  d.api('POST', '/calendar/create', { body: { task_id: 'cal-test', ...body }, ...(key ? { key } : {}) });
const list = async (start: string, end: string, extra = '') => {
  const r = await d.api('GET', `/calendar/events?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}${extra}`);
  expect(r.status, r.text).toBe(200);
  return r.json.events as any[];
};

describe('create', () => {
  it('answers 201 with an ev_ uid, UTC times, defaults and no conflicts', async () => {
    const r = await create({ title: 'Focus', scheduled_for: '2031-02-10T11:00:00+02:00', duration_minutes: 30, tag: '@deep-work' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      uid: expect.stringMatching(/^ev_/),
      title: 'Focus',
      scheduled_for: '2031-02-10T09:00:00.000Z',
      duration_minutes: 30,
      task_id: 'cal-test',
      tag: '@deep-work',
      timezone: 'Europe/Berlin',
      all_day: false,
      status: 'confirmed',
      source: 'api',
      version: 1,
      conflicts: [],
    });
    expect(r.json.created_at).toMatch(/Z$/);
  });

  it('lists the overlapping events, recurring occurrences included', async () => {
    const weekly = await create({ title: 'Weekly sync', scheduled_for: '2031-02-03T09:00:00+01:00', duration_minutes: 60, rrule: 'FREQ=WEEKLY;BYDAY=MO' });
    expect(weekly.status).toBe(201);
    // Monday 2031-02-17 09:30 Berlin overlaps the third occurrence, not the first.
    const r = await create({ title: 'Clash', scheduled_for: '2031-02-17T09:30:00+01:00', duration_minutes: 30 });
    expect(r.json.conflicts).toEqual([weekly.json.uid]);
    const free = await create({ title: 'Free', scheduled_for: '2031-02-17T10:00:00+01:00', duration_minutes: 30 });
    expect(free.json.conflicts).toEqual([]);
    // A new series conflicts with a one-off event on any of its occurrences.
    const series = await create({ title: 'Daily', scheduled_for: '2031-02-14T10:15:00+01:00', duration_minutes: 15, rrule: 'FREQ=DAILY;COUNT=5' });
    expect(series.json.conflicts).toEqual([free.json.uid]);
  });

  it.each([
    [{ title: 'x', duration_minutes: 30 }, 'scheduled_for'],
    [{ title: 'x', scheduled_for: '2031-02-10T10:00:00Z', duration_minutes: 0 }, 'duration_minutes'],
    [{ title: 'x', scheduled_for: '2031-02-10T10:00:00Z', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ title: 'x', scheduled_for: '2031-02-10T10:00:00Z', rrule: 'FREQ=SOMETIMES' }, 'rrule'],
    [{ title: 'x', scheduled_for: '2031-02-10 10:00' }, 'scheduled_for'],
    [{ title: 'x', scheduled_for: '2031-02-10', all_day: false }, 'scheduled_for'],
    [{ title: 'x', scheduled_for: '2031-02-10T10:00:00Z', color: 'red' }, 'body'],
  ])('%j → 422 naming %s', async (body, field) => {
    const r = await d.api('POST', '/calendar/create', { body });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.json.error.details.map((x: any) => x.path).join(' ')).toContain(field);
  });

  it('makes a bare date an all-day event at local midnight, lasting whole days', async () => {
    const r = await create({ title: 'Holiday', scheduled_for: '2031-07-01', duration_minutes: 2 * 1440 });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ all_day: true, scheduled_for: '2031-06-30T22:00:00.000Z', duration_minutes: 2880 });
  });
});

describe('listing a range', () => {
  it('expands a series into occurrences with DST-correct wall times (Berlin, March 30 2031)', async () => {
    const s = await create({
      title: 'Morning',
      scheduled_for: '2031-03-27T09:00:00+01:00',
      duration_minutes: 30,
      rrule: 'FREQ=DAILY;COUNT=6',
      tag: 'dst-berlin',
    });
    const items = await list('2031-03-20T00:00:00Z', '2031-04-10T00:00:00Z', '&tag=dst-berlin');
    expect(items.map((e) => e.scheduled_for)).toEqual([
      '2031-03-27T08:00:00.000Z',
      '2031-03-28T08:00:00.000Z',
      '2031-03-29T08:00:00.000Z',
      '2031-03-30T07:00:00.000Z',
      '2031-03-31T07:00:00.000Z',
      '2031-04-01T07:00:00.000Z',
    ]);
    expect(items.every((e) => e.occurrence_of === s.json.uid && e.uid === s.json.uid && e.recurrence_id === e.scheduled_for)).toBe(true);
  });

  it('expands in New York time for an event in that zone (March 9 2031)', async () => {
    await create({
      title: 'NY call',
      scheduled_for: '2031-03-06T09:30:00-05:00',
      timezone: 'America/New_York',
      duration_minutes: 30,
      rrule: 'FREQ=DAILY;COUNT=5',
      tag: 'dst-ny',
    });
    const items = await list('2031-03-01T00:00:00Z', '2031-03-20T00:00:00Z', '&tag=dst-ny');
    expect(items.map((e) => e.scheduled_for.slice(11, 16))).toEqual(['14:30', '14:30', '14:30', '13:30', '13:30']);
  });

  it('takes dates as midnight in the user zone, defaults to 30 days from now, refuses end ≤ start', async () => {
    expect((await d.api('GET', '/calendar/events?start=2031-02-10&end=2031-02-11')).json.events.some((e: any) => e.title === 'Focus')).toBe(true);
    expect((await d.api('GET', '/calendar/events')).status).toBe(200);
    const bad = await d.api('GET', '/calendar/events?start=2031-02-11T00:00:00Z&end=2031-02-10T00:00:00Z');
    expect(bad.status).toBe(422);
    expect((await d.api('GET', '/calendar/events?start=yesterday')).status).toBe(422);
  });

  it('expand=false lists each series once, as stored', async () => {
    const r = await d.api('GET', '/calendar/events?expand=false&tag=dst-berlin');
    expect(r.json.events).toHaveLength(1);
    expect(r.json.events[0]).toMatchObject({ rrule: 'FREQ=DAILY;COUNT=6' });
    expect(r.json.events[0].occurrence_of).toBeUndefined();
  });
});

describe('edit and remove', () => {
  it('edits with version + 1, honours expected_version, 404 for an unknown uid', async () => {
    const e = (await create({ title: 'Draft', scheduled_for: '2031-05-05T10:00:00Z', duration_minutes: 30 })).json;
    const r = await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { title: 'Final', duration_minutes: 45 }, expected_version: 1 } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ title: 'Final', duration_minutes: 45, version: 2, scheduled_for: '2031-05-05T10:00:00.000Z' });
    const stale = await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { title: 'Lost' }, expected_version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('version_conflict');
    expect((await d.api('PATCH', '/calendar/edit', { body: { uid: 'ev_nope', updates: { title: 'x' } } })).status).toBe(404);
    const bad = await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { rrule: 'FREQ=DAILY;COUNT=-1' } } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.details[0].path).toBe('updates.rrule');
    const clear = await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { task_id: null, tag: '@x' } } });
    expect(clear.json).toMatchObject({ task_id: null, tag: '@x', version: 3 });
  });

  it('edits and removes single occurrences of a series (override and EXDATE)', async () => {
    const s = (await create({ title: 'Gym', scheduled_for: '2031-06-02T07:00:00+02:00', duration_minutes: 60, rrule: 'FREQ=WEEKLY;COUNT=4', tag: 'gym' })).json;
    const moved = await d.api('PATCH', '/calendar/edit', {
      body: { uid: s.uid, recurrence_id: '2031-06-09T05:00:00Z', updates: { scheduled_for: '2031-06-10T18:00:00+02:00', title: 'Gym (evening)' } },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.overrides).toEqual([
      { recurrence_id: '2031-06-09T05:00:00.000Z', scheduled_for: '2031-06-10T16:00:00.000Z', duration_minutes: 60, title: 'Gym (evening)' },
    ]);
    const removed = await d.api('DELETE', `/calendar/remove?uid=${s.uid}&recurrence_id=2031-06-16T05:00:00Z`);
    expect(removed.json).toEqual({ deleted: s.uid, recurrence_id: '2031-06-16T05:00:00.000Z' });
    const items = await list('2031-06-01T00:00:00Z', '2031-07-01T00:00:00Z', '&tag=gym');
    expect(items.map((e) => [e.scheduled_for, e.title, e.recurrence_id])).toEqual([
      ['2031-06-02T05:00:00.000Z', 'Gym', '2031-06-02T05:00:00.000Z'],
      ['2031-06-10T16:00:00.000Z', 'Gym (evening)', '2031-06-09T05:00:00.000Z'],
      ['2031-06-23T05:00:00.000Z', 'Gym', '2031-06-23T05:00:00.000Z'],
    ]);
    // Not an occurrence of the series → 404; a series field on one occurrence → 422.
    expect((await d.api('DELETE', `/calendar/remove?uid=${s.uid}&recurrence_id=2031-06-17T05:00:00Z`)).status).toBe(404);
    expect(
      (await d.api('PATCH', '/calendar/edit', { body: { uid: s.uid, recurrence_id: '2031-06-23T05:00:00Z', updates: { rrule: 'FREQ=DAILY' } } })).status,
    ).toBe(422);
  });

  it('removes an event: {deleted}, gone from the listing, 404 afterwards', async () => {
    const e = (await create({ title: 'Temp', scheduled_for: '2031-08-01T10:00:00Z', duration_minutes: 30 })).json;
    expect((await d.api('DELETE', `/calendar/remove?uid=${e.uid}`)).json).toEqual({ deleted: e.uid });
    expect((await list('2031-08-01T00:00:00Z', '2031-08-02T00:00:00Z')).some((x) => x.uid === e.uid)).toBe(false);
    const again = await d.api('DELETE', `/calendar/remove?uid=${e.uid}`);
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('not_found');
  });

  it('records a calendar_event trace linked to the event for create, edit and remove', async () => {
    const e = (await create({ title: 'Traced', scheduled_for: '2031-09-01T10:00:00Z', duration_minutes: 30, task_id: 'traced-task' })).json;
    await d.api('PATCH', '/calendar/edit', { body: { uid: e.uid, updates: { title: 'Traced (moved)', scheduled_for: '2031-09-02T10:00:00Z' } } });
    await d.api('DELETE', `/calendar/remove?uid=${e.uid}`);
    const r = await d.api('GET', `/memory/pull?task_id=traced-task&type=calendar_event`);
    expect(r.status, r.text).toBe(200);
    const traces = r.json.traces.filter((t: any) => t.linked_event_uid === e.uid);
    expect(traces.map((t: any) => t.fields.action)).toEqual(['created', 'updated', 'removed']);
    expect(traces[1].fields.changes).toMatchObject({
      title: { from: 'Traced', to: 'Traced (moved)' },
      scheduled_for: { from: '2031-09-01T10:00:00.000Z', to: '2031-09-02T10:00:00.000Z' },
    });
  });
});

describe('isolation, scopes and the feed', () => {
  let other: { key: string; userId: string };

  beforeAll(async () => {
    const u = await d.api('POST', '/user/register', {
      body: { email: 'other@example.com', password: 'another secret', display_name: 'Other', timezone: 'UTC' },
    });
    const login = await d.api('POST', '/user/login', { body: { email: 'other@example.com', password: 'another secret' }, key: null });
    other = { key: login.json.token, userId: u.json.user_id };
  });

  it("never shows or changes another user's events (403)", async () => {
    const mine = (await create({ title: 'Private', scheduled_for: '2031-10-01T10:00:00Z', duration_minutes: 30 })).json;
    const theirs = await d.api('GET', '/calendar/events?start=2031-10-01T00:00:00Z&end=2031-10-02T00:00:00Z', { key: other.key });
    expect(theirs.json.events).toEqual([]);
    expect((await d.api('PATCH', '/calendar/edit', { key: other.key, body: { uid: mine.uid, updates: { title: 'Mine now' } } })).status).toBe(403);
    expect((await d.api('DELETE', `/calendar/remove?uid=${mine.uid}`, { key: other.key })).status).toBe(403);
  });

  it('needs calendar:write to create and calendar:read to list', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['calendar:read'] } });
    expect((await create({ title: 'x', scheduled_for: '2031-10-01T10:00:00Z' }, k.json.key)).status).toBe(403);
    expect((await d.api('GET', '/calendar/events', { key: k.json.key })).status).toBe(200);
    const memOnly = await d.api('POST', '/auth/keys', { body: { name: 'mem', scopes: ['memory:read'] } });
    expect((await d.api('GET', '/calendar/events', { key: memOnly.json.key })).status).toBe(403);
  });

  it('serves the feed for a calendar:read key in the query; 401 for a bad key, 403 without the scope', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'feed', scopes: ['calendar:read'] } });
    const r = await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(k.json.key)}`, { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(r.text).toContain('SUMMARY:Weekly sync');
    expect(r.text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const bad = await d.api('GET', '/calendar/feed.ics?key=kairos_sk_nope', { key: null });
    expect(bad.status).toBe(401);
    expect(bad.json.error.code).toBe('unauthorized');
    // No key at all: the credential is checked before the query is validated.
    expect((await d.api('GET', '/calendar/feed.ics', { key: null })).status).toBe(401);
    const mem = await d.api('POST', '/auth/keys', { body: { name: 'mem2', scopes: ['memory:read'] } });
    expect((await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(mem.json.key)}`, { key: null })).status).toBe(403);
    await d.api('DELETE', `/auth/keys/${k.json.id}`);
    expect((await d.api('GET', `/calendar/feed.ics?key=${encodeURIComponent(k.json.key)}`, { key: null })).status).toBe(401);
  });

  it('keeps an imported UID per user: the same file imports for two users', async () => {
    const ics =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:shared-uid@example.com\r\nDTSTAMP:20310101T000000Z\r\nDTSTART:20311101T100000Z\r\nDURATION:PT1H\r\nSUMMARY:Shared\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    const a = await d.api('POST', '/calendar/import', { body: { ics } });
    const b = await d.api('POST', '/calendar/import', { body: { ics }, key: other.key });
    expect([a.json.imported, b.json.imported]).toEqual([1, 1]);
    const mine = await list('2031-11-01T00:00:00Z', '2031-11-02T00:00:00Z');
    expect(mine.map((e) => e.uid)).toContain('shared-uid@example.com');
    const theirs = await d.api('GET', '/calendar/events?start=2031-11-01T00:00:00Z&end=2031-11-02T00:00:00Z', { key: other.key });
    expect(theirs.json.events.map((e: any) => e.title)).toEqual(['Shared']);
  });
});

describe('import and export', () => {
  const ics = (summary: string) =>
    `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:import-1@example.com\r\nDTSTAMP:20310101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20311203T090000\r\nDTEND;TZID=Europe/Berlin:20311203T100000\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:${summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

  it('imports text/calendar, is idempotent, updates a changed event', async () => {
    const first = await d.api('POST', '/calendar/import', { raw: ics('Lesson'), headers: { 'content-type': 'text/calendar' } });
    expect(first.json).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [] });
    const again = await d.api('POST', '/calendar/import', { raw: ics('Lesson'), headers: { 'content-type': 'text/calendar' } });
    expect(again.json).toMatchObject({ imported: 0, updated: 0, skipped: 1 });
    const changed = await d.api('POST', '/calendar/import', { body: { ics: ics('Lesson (room 2)') } });
    expect(changed.json).toMatchObject({ imported: 0, updated: 1 });
    const items = await list('2031-12-01T00:00:00Z', '2032-01-01T00:00:00Z');
    const lessons = items.filter((e) => e.uid === 'import-1@example.com');
    expect(lessons.map((e) => [e.scheduled_for, e.title, e.source, e.version])).toEqual([
      ['2031-12-03T08:00:00.000Z', 'Lesson (room 2)', 'import', 2],
      ['2031-12-10T08:00:00.000Z', 'Lesson (room 2)', 'import', 2],
      ['2031-12-17T08:00:00.000Z', 'Lesson (room 2)', 'import', 2],
    ]);
  });

  it('refuses an empty or non-calendar body without writing anything', async () => {
    const before = (await d.api('GET', '/calendar/events?expand=false')).json.events.length;
    expect((await d.api('POST', '/calendar/import', { raw: '', headers: { 'content-type': 'text/calendar' } })).status).toBe(400);
    expect((await d.api('POST', '/calendar/import', { body: { ics: 42 } })).status).toBe(422);
    expect((await d.api('POST', '/calendar/import', { raw: 'hello', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
    const junk = await d.api('POST', '/calendar/import', { raw: 'this is not a calendar', headers: { 'content-type': 'text/calendar' } });
    expect(junk.status).toBe(200);
    expect(junk.json.imported).toBe(0);
    expect((await d.api('GET', '/calendar/events?expand=false')).json.events.length).toBe(before);
  });

  it('answers 413 for an import over 10 MiB', async () => {
    const big = 'BEGIN:VCALENDAR\r\n' + 'X-PAD:' + 'x'.repeat(10 * 1024 * 1024) + '\r\nEND:VCALENDAR\r\n';
    const r = await d.api('POST', '/calendar/import', { raw: big, headers: { 'content-type': 'text/calendar' } });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('payload_too_large');
  });

  it('exports a range as text/calendar with the UIDs, CRLF and the rule', async () => {
    const r = await d.api('GET', '/calendar/export.ics?start=2031-12-01T00:00:00Z&end=2032-01-01T00:00:00Z');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/calendar/);
    const unfolded = r.text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('UID:import-1@example.com');
    expect(unfolded).toContain('DTSTART;TZID=Europe/Berlin:20311203T090000');
    expect(unfolded).toContain('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(unfolded).not.toContain('SUMMARY:Focus');
    expect(/[^\r]\n/.test(r.text)).toBe(false);
  });
});
