import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
const kairos = (...args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const json = async (...args: string[]) => {
  const r = await kairos('--json', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(async () => {
  expect((await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Europe/Berlin' } } })).status).toBe(200);
});

describe('kairos tempo', () => {
  it('lists tags, one per line, or as a JSON array', async () => {
    const r = await kairos('tempo', 'tags');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('@afternoon\n@evening\n@morning\n@night\n@work\n25m\n50m\n90m\n');
    expect(await json('tempo', 'tags')).toContain('@work');
  });

  it('sets a range with days, and removes one with none', async () => {
    const r = await kairos('tempo', 'set', '@Deep-Work', '9-11:30', '--days', 'mon-thu');
    expect(r).toMatchObject({ code: 0, stdout: '@deep-work: 09:00–11:30 mon-thu\n' });
    const night = await kairos('tempo', 'set', '@night', '23:00-07:00');
    expect(night.stdout).toBe('@night: 23:00–07:00 every day (ends the next day)\n');
    const p = await json('tempo', 'set', '@evening', 'none');
    expect(p.time_ranges['@deep-work']).toEqual({ start: '09:00', end: '11:30', days: ['mon', 'tue', 'wed', 'thu'] });
    expect(p.time_ranges['@evening']).toBeUndefined();
  });

  it('maps words to tags', async () => {
    expect((await kairos('tempo', 'map', 'Tax  Return', '@afternoon')).stdout).toBe('tax return → @afternoon\n');
    expect((await json('tempo', 'map', 'gym', '@morning')).tag_mappings).toEqual({ 'tax return': '@afternoon', gym: '@morning' });
  });

  it('blocks weekly time, one-off time in the user zone, and whole days', async () => {
    expect((await kairos('tempo', 'block', '12:00-13:00', '--days', 'weekdays', '--label', 'lunch')).stdout).toBe('blocked #1: 12:00–13:00 mon-fri (lunch)\n');
    expect((await kairos('tempo', 'block', 'June 2 2031 14:00 to 15:30', '--label', 'dentist')).stdout).toBe(
      'blocked #2: 2031-06-02 14:00 – 15:30 (dentist)\n',
    );
    expect((await kairos('tempo', 'block', '2031-12-24')).stdout).toBe('blocked #3: 2031-12-24 all day\n');
    const p = await json('tempo', 'block', '2031-06-05T09:00:00Z', '--for', '1h30m');
    expect(p.blocked).toEqual([
      { start: '12:00', end: '13:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], label: 'lunch' },
      { start: '2031-06-02T12:00:00.000Z', end: '2031-06-02T13:30:00.000Z', label: 'dentist' }, // Berlin summer time
      { start: '2031-12-23T23:00:00.000Z', end: '2031-12-24T23:00:00.000Z' },
      { start: '2031-06-05T09:00:00.000Z', end: '2031-06-05T10:30:00.000Z' },
    ]);
  });

  it('sets budgets and cadence rules', async () => {
    expect((await kairos('tempo', 'budget', '--per-day', '10', '--per-week', '40')).stdout).toBe('budget: all agents: 10/day, 40/week\n');
    expect((await kairos('tempo', 'budget', '--agent', 'scout', '--per-day', '3')).stdout).toBe('budget: all agents: 10/day, 40/week; agent scout: 3/day\n');
    expect((await kairos('tempo', 'cadence', 'reschedule_event', '2/week', '--per-event')).stdout).toBe(
      'cadence: reschedule_event at most 2 per week per event\n',
    );
    const p = await json('tempo', 'cadence', 'reflect', '1/day');
    expect(p.cadence).toEqual({ reflect: { max: 1, per: 'day' }, reschedule_event: { max: 2, per: 'week', per_event: true } });
    expect((await json('tempo', 'budget', '--per-day', 'none')).budget).toEqual({ per_week: 40, per_agent: { scout: { per_day: 3 } } });
  });

  it('shows the profile with the ranges and weekly blocks as a week grid', async () => {
    const r = await kairos('tempo', 'profile');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Tempo of usr_\w+ \(Europe\/Berlin\)$/);
    const grid = (name: string) =>
      lines
        .find((l) => l.startsWith(name))!
        .trim()
        .split(/\s{2,}/);
    expect(
      lines
        .find((l) => l.trimStart().startsWith('mon'))!
        .trim()
        .split(/\s+/),
    ).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
    expect(grid('@work')).toEqual(['@work', '09-17', '09-17', '09-17', '09-17', '09-17', '·', '·']);
    expect(grid('@deep-work')).toEqual(['@deep-work', '09-11:30', '09-11:30', '09-11:30', '09-11:30', '·', '·', '·']);
    expect(grid('@night')).toEqual(['@night', ...Array(7).fill('23-07')]);
    expect(grid('#1 blocked lunch')).toEqual(['#1 blocked lunch', ...Array(5).fill('12-13'), '·', '·']);
    expect(r.stdout).toContain('#2  2031-06-02 14:00 – 15:30 (dentist)');
    expect(r.stdout).toContain('#3  2031-12-24 all day');
    expect(r.stdout).toMatch(/Tag mappings\s+tax return → @afternoon; gym → @morning/);
    expect(r.stdout).toMatch(/Cadence\s+reschedule_event at most 2 per week per event; reflect at most 1 per day/);
    expect(r.stdout).toMatch(/Budget\s+all agents: 40\/week; agent scout: 3\/day/);
    expect((await json('tempo', 'profile')).timezone).toBe('Europe/Berlin');
  });

  it('unblocks by number, or everything', async () => {
    expect((await kairos('tempo', 'unblock', '#2', '4')).stdout).toBe('unblocked: 2031-06-02 14:00 – 15:30 (dentist)\nunblocked: 2031-06-05 11:00 – 12:30\n');
    expect((await json('tempo', 'profile')).blocked).toHaveLength(2);
    expect((await json('tempo', 'unblock', 'all')).blocked).toEqual([]);
  });

  it('keeps every block when several `kairos tempo block` run at once', async () => {
    const days = ['2031-08-04', '2031-08-05', '2031-08-06', '2031-08-07'];
    const runs = await Promise.all(days.map((day) => kairos('tempo', 'block', day)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    // Each run names its own block's number.
    expect(new Set(runs.map((r) => r.stdout.match(/#(\d+)/)![1])).size).toBe(4);
    expect((await json('tempo', 'profile')).blocked).toHaveLength(4);
    expect((await json('tempo', 'unblock', 'all')).blocked).toEqual([]);
  });
});

describe('kairos tempo: mistakes', () => {
  it.each([
    [['tempo', 'set', '@x', 'noon-ish'], /not a time range/],
    [['tempo', 'set', '@x', '09:00-10:00', '--days', 'funday'], /not a set of days/],
    [['tempo', 'cadence', 'email', '1/day'], /not an action kind/],
    [['tempo', 'cadence', 'reflect', '3/month'], /not a cadence/],
    [['tempo', 'cadence', 'reflect', '1/day', '--per-event'], /only to reschedule_event/],
    [['tempo', 'budget'], /--per-day and\/or --per-week/],
    [['tempo', 'budget', '--per-week', 'lots'], /whole number/],
    [['tempo', 'block', 'tomorrow', '9am'], /has no end/],
    [['tempo', 'block', 'whenever'], /WHEN: "whenever" is not a date or time it can read/],
    [['tempo', 'unblock', '7'], /no block #7/],
    [['tempo', 'set', '@x'], /missing required argument/],
  ])('kairos %j exits 2 with a reason', async (args, reason) => {
    const r = await kairos(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(reason);
  });

  it('exits 6 when the API refuses a tag', async () => {
    const r = await kairos('tempo', 'map', 'gym', 'Morning!!');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/"Morning!!" is not a tempo tag/);
  });

  it("exits 4 for another user's profile", async () => {
    const reg = await d.api('POST', '/user/register', { body: { email: 'bo@example.com', password: 'long enough pw', display_name: 'Bo' } });
    const key = await d.api('POST', '/auth/keys', { body: { name: 'bo', scopes: ['tempo:read'], user_id: reg.json.user_id } });
    const r = await runCliInProcess(['tempo', 'profile', '--user', d.userId], { env: appCliEnv(d, { KAIROS_API_KEY: key.json.key }) });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/your own data/);
  });

  it('shows examples in help', async () => {
    const r = await kairos('tempo', 'block', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ kairos tempo block 12:00-13:00 --days mon-fri --label lunch');
  });
});
