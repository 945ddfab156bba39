import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// Overlapping events are marked where a person reads them (cal list, cal week, today), naming
// the other event by title and time; cal add's overlap warning says titles and times, not ids.

const d = useApp();
const kairos = (...args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const create = async (body: object) => {
  const r = await d.api('POST', '/calendar/create', { body });
  expect(r.status, r.text).toBe(201);
  return r.json;
};

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin' } } });
  // Tuesday 2031-01-07, Berlin (UTC+1): Standup 09:00–10:30, Review 09:30–11:30, Lunch alone.
  await create({ title: 'Standup', scheduled_for: '2031-01-07T08:00:00Z', duration_minutes: 90 });
  await create({ title: 'Review', scheduled_for: '2031-01-07T08:30:00Z', duration_minutes: 120 });
  await create({ title: 'Lunch', scheduled_for: '2031-01-07T11:00:00Z', duration_minutes: 60 });
  await create({ title: 'Holiday', scheduled_for: '2031-01-07', all_day: true });
});

describe('overlap markers', () => {
  it('cal list marks each overlapping event with the other one', async () => {
    const r = await kairos('cal', 'list', '--from', '2031-01-07', '--to', '2031-01-08');
    expect(r.code, r.stderr).toBe(0);
    const line = (t: string) => r.stdout.split('\n').find((l) => new RegExp(`^\\s+(\\d\\d:\\d\\d–\\d\\d:\\d\\d|all day)\\s+${t}`).test(l)) ?? '';
    expect(line('Standup')).toContain('⚠ overlaps “Review” 09:30–11:30');
    expect(line('Review')).toContain('⚠ overlaps “Standup” 09:00–10:30');
    expect(line('Lunch')).not.toContain('overlaps');
    expect(line('Holiday')).not.toContain('overlaps');
  });

  it('cal week lists each overlapping pair under the grid', async () => {
    const r = await kairos('cal', 'week', '2031-01-07');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('⚠ Tue 7: “Standup” 09:00–10:30 overlaps “Review” 09:30–11:30');
    expect(r.stdout.match(/⚠/g)).toHaveLength(1);
  });

  it("cal add's warning names the overlapped events by title and time", async () => {
    const r = await kairos('cal', 'add', 'Call', '--at', '2031-01-07T10:00:00+01:00', '--for', '15m');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('overlaps “Standup” Tue 2031-01-07 09:00–10:30 (ev_');
    expect(r.stderr).toContain('“Review” Tue 2031-01-07 09:30–11:30 (ev_');
  });

  it('today marks overlaps too', async () => {
    // Today in Berlin (UTC+1 in winter, +2 in summer: 11:00 UTC is midday either way).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    await create({ title: 'Dentist', scheduled_for: `${day}T11:00:00Z`, duration_minutes: 60 });
    await create({ title: 'Call with Ana', scheduled_for: `${day}T11:30:00Z`, duration_minutes: 30 });
    const r = await kairos('today');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').find((l) => l.includes('Dentist'))).toMatch(/⚠ overlaps “Call with Ana” 1[23]:30–1[34]:00/);
  });
});
