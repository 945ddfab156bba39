import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, strip, Terminal } from '../helpers/terminal.js';

// Issue 19's `kairos cal week`: a 7-column grid in the user's zone that fits the terminal.
const d = useApp();
// The machine's zone is not the user's: everything must be read in Europe/Berlin all the same.
// A locale without a week convention of its own (en_US would start weeks on Sunday).
const LOCALE = { LANG: 'C.UTF-8', LC_ALL: undefined, LC_TIME: undefined };
const cliEnv = (env: Record<string, string | undefined> = {}) => appCliEnv(d, { ...LOCALE, TZ: 'America/New_York', COLUMNS: '80', ...env });
const kairos = (args: string[], env: Record<string, string | undefined> = {}) => runCliInProcess(args, { env: cliEnv(env) });
/** The installed bin against the same app, for what only a process has: its own TZ, a real pipe. */
const spawned = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { env: cliEnv(env) });

const create = async (body: Record<string, unknown>) => {
  const r = await d.api('POST', '/calendar/create', { body });
  expect(r.status, r.text).toBe(201);
  return r.json as { uid: string };
};

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Europe/Berlin' } } });
  // Daily at 09:00 Berlin across the end of summer time (Sunday 2026-10-25): 07:00Z before, 08:00Z after.
  const standup = await create({
    title: 'Standup',
    scheduled_for: '2026-10-19T07:00:00Z',
    duration_minutes: 15,
    rrule: 'FREQ=DAILY;COUNT=14',
    timezone: 'Europe/Berlin',
  });
  // Wednesday's occurrence moved to 11:00 and renamed: an override.
  const edit = await d.api('PATCH', '/calendar/edit', {
    body: { uid: standup.uid, recurrence_id: '2026-10-21T07:00:00.000Z', updates: { title: 'Retro', scheduled_for: '2026-10-21T09:00:00Z' } },
  });
  expect(edit.status, edit.text).toBe(200);
  await create({ title: 'Conference', scheduled_for: '2026-10-22', all_day: true, duration_minutes: 3 * 1440 });
  // Friday 21:00 to Saturday 17:00: a timed event over two days.
  await create({ title: 'Night train', scheduled_for: '2026-10-23T19:00:00Z', duration_minutes: 20 * 60 });
  await create({ title: 'Quarterly planning with the whole product team', scheduled_for: '2026-10-20T12:00:00Z', duration_minutes: 60 });
});

/** The grid's rows as [gutter, ...7 day cells]; the header row tells the columns' days. */
function grid(stdout: string) {
  const lines = stdout.trimEnd().split('\n');
  // Rule lines (─┼─) have no │: the rows of a section run until the next labelled row.
  const rows = lines.filter((l) => l.includes('│')).map((l) => l.split('│').map((c) => c.trim()));
  const header = rows[0]!.slice(1);
  const col = (day: string) => {
    const i = header.findIndex((h) => h.replace(/[[\]]/g, '').startsWith(day));
    expect(i, `no column ${day} in ${header.join(' | ')}`).toBeGreaterThanOrEqual(0);
    return i + 1;
  };
  /** The cells of a day's column on the rows of an hour (or the all-day band), in order. */
  const at = (label: string, day: string) => {
    const c = col(day);
    const from = rows.findIndex((r) => r[0] === label);
    expect(from, `no row ${label}`).toBeGreaterThan(0);
    const out = [rows[from]![c]!];
    for (let i = from + 1; i < rows.length && rows[i]![0] === ''; i++) out.push(rows[i]![c]!);
    return out.filter(Boolean);
  };
  return { lines, header, at };
}

describe('kairos cal week', () => {
  it('fits 80 columns: a column per day, all-day events on top, timed ones at their hour, long titles cut with …', async () => {
    const r = await kairos(['cal', 'week', '2026-10-21']);
    expect(r.code, r.stderr).toBe(0);
    const g = grid(r.stdout);
    for (const line of g.lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(g.lines[0]).toMatch(/^Week 43 · Mon 19 – Sun 25 Oct 2026 · Europe\/Berlin/);
    expect(g.header).toEqual(['Mon 19', 'Tue 20', 'Wed 21', 'Thu 22', 'Fri 23', 'Sat 24', 'Sun 25']);
    // The recurring event on each day at 09:00, but Wednesday's occurrence is the override at 11:00.
    for (const day of ['Mon', 'Tue', 'Thu', 'Fri', 'Sat', 'Sun']) expect(g.at('09:00', day)).toEqual(['Standup']);
    expect(g.at('09:00', 'Wed')).toEqual([]);
    expect(g.at('11:00', 'Wed')).toEqual(['Retro']);
    // All-day over three days; the night train starts Friday at 21:00 and ends Saturday at 17:00.
    expect(g.at('all-day', 'Wed')).toEqual([]);
    for (const day of ['Thu', 'Fri']) expect(g.at('all-day', day)).toEqual(['Conferen…']);
    expect(g.at('all-day', 'Sat')).toEqual(['Conferen…', '→17:00 N…']);
    expect(g.at('21:00', 'Fri')).toEqual(['Night']);
    expect(g.at('22:00', 'Fri')).toEqual(['train']);
    // One hour for a long title: one line, cut.
    expect(g.at('14:00', 'Tue')).toEqual(['Quarterl…']);
  });

  it('uses a wider terminal: more of each title, dates with the month, times beside titles', async () => {
    const r = await kairos(['cal', 'week', '2026-10-21'], { COLUMNS: '120' });
    expect(r.code, r.stderr).toBe(0);
    const g = grid(r.stdout);
    const widest = Math.max(...g.lines.map((l) => [...l].length));
    expect(widest).toBeGreaterThan(100);
    expect(widest).toBeLessThanOrEqual(120);
    expect(g.header[0]).toBe('Mon 19 Oct');
    expect(g.at('all-day', 'Sat')).toEqual(['Conference', '→17:00 Night t…']);
    expect(g.at('14:00', 'Tue')).toEqual(['14:00 Quarterl…']);
    expect(g.at('11:00', 'Wed')).toEqual(['11:00 Retro']);
  });

  it('keeps a 09:00 Berlin event at 09:00 in the week summer time ends, and the week after', async () => {
    for (const date of ['2026-10-25', '2026-10-26', '2026-11-01']) {
      const r = await spawned(['cal', 'week', date]);
      expect(r.code, r.stderr).toBe(0);
      const g = grid(r.stdout);
      const days = date === '2026-10-25' ? ['Mon', 'Tue', 'Thu', 'Fri', 'Sat', 'Sun'] : ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
      for (const day of days) expect(g.at('09:00', day), `${date} ${day}`).toEqual(['Standup']);
      for (const day of days) expect(g.at('08:00', day), `${date} ${day}`).toEqual([]);
    }
    const after = await kairos(['--json', 'cal', 'week', '2026-10-26']);
    const days = JSON.parse(after.stdout).days as { date: string; events: { from: string; event: { scheduled_for: string } }[] }[];
    expect(days.map((x) => x.events[0]?.from)).toEqual(['09:00', '09:00', '09:00', '09:00', '09:00', '09:00', '09:00']);
    expect(days[0]!.events[0]!.event.scheduled_for).toBe('2026-10-26T08:00:00.000Z');
  });

  it('--json: the same occurrences grouped by day, each with how it shows that day', async () => {
    const r = await kairos(['--json', 'cal', 'week', '2026-10-21']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ week: '2026-W43', from: '2026-10-19', to: '2026-10-25', timezone: 'Europe/Berlin', week_start: 'monday' });
    expect(j.days.map((x: { date: string; weekday: string }) => `${x.weekday} ${x.date}`)).toEqual([
      'mon 2026-10-19',
      'tue 2026-10-20',
      'wed 2026-10-21',
      'thu 2026-10-22',
      'fri 2026-10-23',
      'sat 2026-10-24',
      'sun 2026-10-25',
    ]);
    const sat = j.days[5].events.map((e: { part: string; event: { title: string } }) => `${e.part} ${e.event.title}`);
    expect(sat).toEqual(['all-day Conference', 'ends Night train', 'timed Standup']);
    expect(j.days[5].events[0]).toMatchObject({ day: 3, days: 3 });
    expect(j.days[5].events[1]).toMatchObject({ to: '17:00', day: 2, days: 2 });
    expect(j.days[2].events).toMatchObject([
      { part: 'timed', from: '11:00', to: '11:15', event: { title: 'Retro', recurrence_id: '2026-10-21T07:00:00.000Z' } },
    ]);
    expect(j.days[0].events[0].event.occurrence_of).toBeTypeOf('string');
  });

  it('starts the week on Sunday with --week-start sunday or the week_starts preference', async () => {
    const flag = grid((await kairos(['cal', 'week', '2026-10-21', '--week-start', 'sunday'])).stdout);
    expect(flag.header).toEqual(['Sun 18', 'Mon 19', 'Tue 20', 'Wed 21', 'Thu 22', 'Fri 23', 'Sat 24']);
    await d.api('PATCH', '/user/update', { body: { updates: { preferences: { week_starts: 'sunday' } } } });
    try {
      const pref = await kairos(['cal', 'week', '2026-10-21']);
      expect(grid(pref.stdout).header[0]).toBe('Sun 18');
      expect(grid((await kairos(['cal', 'week', '2026-10-21', '--week-start', 'monday'])).stdout).header[0]).toBe('Mon 19');
    } finally {
      await d.api('PATCH', '/user/update', { body: { updates: { preferences: { week_starts: null } } } });
    }
    // Without a preference, the locale's convention (as cal(1) and khal read it): Sunday in the US, Monday in Germany.
    expect(grid((await kairos(['cal', 'week', '2026-10-21'], { LANG: 'en_US.UTF-8' })).stdout).header[0]).toBe('Sun 18');
    expect(grid((await kairos(['cal', 'week', '2026-10-21'], { LANG: 'de_DE.UTF-8' })).stdout).header[0]).toBe('Mon 19');
  });

  it('shows this week by default with today marked, in the user zone', async () => {
    const r = await kairos(['cal', 'week']);
    expect(r.code, r.stderr).toBe(0);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', day: 'numeric' }).formatToParts(new Date()).map((p) => [p.type, p.value]),
    );
    expect(grid(r.stdout).header).toContain(`[${parts.weekday} ${parts.day}]`);
    expect(grid(r.stdout).header.filter((h) => h.startsWith('['))).toHaveLength(1);
  });

  it('refuses a bad DATE with a sentence and the usage exit code of the other cal commands', async () => {
    const list = await kairos(['cal', 'list', '--from', 'someday']);
    for (const bad of ['2026-02-31', 'someday', 'tomorrow 25:00']) {
      const r = await kairos(['cal', 'week', bad]);
      expect(r.code).toBe(list.code);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`DATE: "${bad}" is not a date; give a day of the week you want to see, e.g. 2026-12-07`);
      expect(r.stdout).toBe('');
    }
    const ws = await kairos(['cal', 'week', '--week-start', 'friday']);
    expect(ws.code).toBe(2);
    expect(ws.stderr).toMatch(/--week-start: "friday" is not a week start; use monday or sunday/);
  });

  it('reads words for DATE in the user zone', async () => {
    const r = await kairos(['--json', 'cal', 'week', 'next monday']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    // Next Monday is after today and starts its own week.
    expect(j.from > j.today).toBe(true);
    expect(j.days[0].weekday).toBe('mon');
  });
});

describe('the pipe rule', () => {
  it('on a pipe: the same grid, plain (no colour, no JSON), nothing on stderr', async () => {
    const r = await spawned(['cal', 'week', '2026-10-21'], { NO_COLOR: undefined });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^09:00 {2}│Standup/m);
  });

  it.skipIf(!hasScript)('on a terminal: the same lines, in colour', async () => {
    const piped = await spawned(['cal', 'week', '2026-10-21']);
    const t = new Terminal(['cal', 'week', '2026-10-21'], cliEnv({ NO_COLOR: undefined }));
    await t.see('23:00');
    expect(await t.exited).toBe(0);
    expect(t.raw).toMatch(/\x1b\[/);
    expect(strip(t.raw).replace(/\r/g, '').trimEnd()).toBe(piped.stdout.trimEnd());
  });
});
