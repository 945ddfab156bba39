import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// `kairos cal free DAY --for DURATION` and `chat "when am I free …?"`, the CLI run in-process against the app:
// the waking day in the profile's zone, less timed events and blocked time; all-day events take none.

const d = useApp();
const kairos = (...args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });

beforeAll(async () => {
  const p = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin' } } });
  expect(p.status, p.text).toBe(200);
  expect((await kairos('tempo', 'block', '12:00-13:00', '--days', 'weekdays', '--label', 'lunch')).code).toBe(0);
  // Tuesday 2031-01-07: 09:00–10:30 and 15:00–17:00 Berlin (UTC+1), and an all-day holiday.
  for (const body of [
    { title: 'Standup', scheduled_for: '2031-01-07T08:00:00Z', duration_minutes: 90 },
    { title: 'Review', scheduled_for: '2031-01-07T14:00:00Z', duration_minutes: 120 },
    { title: 'Holiday', scheduled_for: '2031-01-07', all_day: true },
  ]) {
    const r = await d.api('POST', '/calendar/create', { body });
    expect(r.status, r.text).toBe(201);
  }
});

describe('kairos cal free', () => {
  it('lists the gaps of the day in the profile zone, blocked time and events left out', async () => {
    const r = await kairos('cal', 'free', '2031-01-07', '--for', '1h');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Free on Tue 2031-01-07 (Europe/Berlin), 1h or more, within 06:00–22:00:');
    const gaps = r.stdout
      .split('\n')
      .filter((l) => /^\s+\d\d:\d\d–\d\d:\d\d\s+\d/.test(l))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(gaps).toEqual(['06:00–09:00', '10:30–12:00', '13:00–15:00', '17:00–22:00']);
    expect(r.stdout).toContain('all day: Holiday (takes no time)');
    expect(r.stdout).toContain('blocked 12:00–13:00 (lunch)');
  });

  it('keeps only gaps as long as asked, and answers --json in UTC', async () => {
    const r = await kairos('--json', 'cal', 'free', '2031-01-07', '--for', '2h');
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res.slots.map((s: any) => [s.start, s.end])).toEqual([
      ['2031-01-07T05:00:00.000Z', '2031-01-07T08:00:00.000Z'],
      ['2031-01-07T12:00:00.000Z', '2031-01-07T14:00:00.000Z'],
      ['2031-01-07T16:00:00.000Z', '2031-01-07T21:00:00.000Z'],
    ]);
  });

  it('answers chat "when am I free on …?" with free slots, not a memory search', async () => {
    const r = await kairos('chat', 'when am I free on 2031-01-07 for 2h?');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Free on Tue 2031-01-07 (Europe/Berlin), 2h or more');
    expect(r.stdout).toContain('13:00–15:00');
    expect(r.stdout).not.toContain('10:30–12:00');
  });

  it('names the flag of a bad duration', async () => {
    const r = await kairos('cal', 'free', 'tuesday', '--for', 'soon');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--for');
  });
});
