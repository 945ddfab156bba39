import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, strip, Terminal } from '../helpers/terminal.js';

// Issue 19's `kairos cal month`: 7 columns × the weeks of the month, each day with what fits.
const d = useApp();
// A locale without a week convention of its own (en_US would start weeks on Sunday).
const LOCALE = { LANG: 'C.UTF-8', LC_ALL: undefined, LC_TIME: undefined };
const cliEnv = (env: Record<string, string | undefined> = {}) => appCliEnv(d, { ...LOCALE, TZ: 'Asia/Tokyo', COLUMNS: '80', ...env });
const kairos = (args: string[], env: Record<string, string | undefined> = {}) => runCliInProcess(args, { env: cliEnv(env) });
/** The installed bin against the same app, for what only a process has: its own TZ, a real pipe. */
const spawned = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { env: cliEnv(env) });

const create = async (body: Record<string, unknown>) => {
  const r = await d.api('POST', '/calendar/create', { body });
  expect(r.status, r.text).toBe(201);
};

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Europe/Berlin' } } });
  // Five on one day: three lines show two of them and "+3 more".
  for (const [i, title] of ['Budget review', 'Lunch with Sam', 'Dentist', 'Call Mum', 'Pick up parcel'].entries())
    await create({ title, scheduled_for: `2026-12-09T${String(8 + i).padStart(2, '0')}:00:00Z`, duration_minutes: 30 });
  // Thursdays at 19:00 Berlin, five times: December 3, 10, 17, 24, 31.
  await create({ title: 'Choir', scheduled_for: '2026-12-03T18:00:00Z', duration_minutes: 90, rrule: 'FREQ=WEEKLY;COUNT=5', timezone: 'Europe/Berlin' });
  // Over the turn of the year: December 30 and 31 in this month, January 1 in the next.
  await create({ title: 'Ski trip', scheduled_for: '2026-12-30', all_day: true, duration_minutes: 3 * 1440 });
  // Friday 22:00 to Sunday 10:00: starts, runs through Saturday, ends Sunday.
  await create({ title: 'Hackathon', scheduled_for: '2026-12-11T21:00:00Z', duration_minutes: 36 * 60 });
});

/** The month grid as cells: `day(n)` gives the lines of the cell whose first line is day n. */
function month(stdout: string) {
  const lines = stdout.trimEnd().split('\n');
  const rows = lines.map((l) => (l.includes('│') ? l.split('│').map((c) => c.trim()) : null));
  const day = (n: number) => {
    for (let i = 0; i < rows.length; i++) {
      const c = rows[i]?.findIndex((cell) => cell.replace(/[[\]]/g, '') === String(n)) ?? -1;
      // A day number is a cell's first line: the line above it is a rule or the weekday names.
      if (c >= 0 && !rows[i - 1]?.some((x) => /^\d/.test(x))) {
        const out: string[] = [];
        for (let k = i + 1; rows[k]; k++) out.push(rows[k]![c] ?? '');
        return { marked: rows[i]![c]!.startsWith('['), lines: out.filter(Boolean) };
      }
    }
    throw new Error(`no day ${n} in\n${stdout}`);
  };
  return { lines, header: rows.find(Boolean)!, day, weeks: lines.filter((l) => l.includes('┼')).length };
}

describe('kairos cal month', () => {
  it('fits 80 columns: 7 columns × 5 weeks, recurring, all-day and multi-day events on each day, "+N more"', async () => {
    const r = await spawned(['cal', 'month', '2026-12']);
    expect(r.code, r.stderr).toBe(0);
    const m = month(r.stdout);
    for (const line of m.lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(m.lines[0]!.trim()).toBe('December 2026 · Europe/Berlin');
    expect(m.header).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    // A rule under the names and between the 5 weeks (December 1 2026 is a Tuesday).
    expect(m.weeks).toBe(5);
    expect(m.day(1).lines).toEqual([]);
    expect(m.day(9).lines).toEqual(['Budget re…', 'Lunch wit…', '+3 more']);
    for (const n of [3, 10, 17, 24]) expect(m.day(n).lines, `December ${n}`).toEqual(['Choir']);
    expect(m.day(31).lines).toEqual(['Ski trip', 'Choir']);
    expect(m.day(30).lines).toEqual(['Ski trip']);
    expect(m.day(11).lines).toEqual(['Hackathon']);
    expect(m.day(12).lines).toEqual(['↔ Hackath…']);
    expect(m.day(13).lines).toEqual(['→ Hackath…']);
    // Day 1 of the grid is a Tuesday: Monday's cell is empty.
    expect(r.stdout.split('\n')[3]).toMatch(/^ {10}│1 {9}│2/);
  });

  it('uses a wider terminal: times beside titles, whole titles where they fit', async () => {
    const r = await kairos(['cal', 'month', '2026-12'], { COLUMNS: '120' });
    expect(r.code, r.stderr).toBe(0);
    const m = month(r.stdout);
    const widest = Math.max(...m.lines.map((l) => [...l].length));
    expect(widest).toBeGreaterThan(100);
    expect(widest).toBeLessThanOrEqual(120);
    expect(m.day(9).lines).toEqual(['09:00 Budget re…', '10:00 Lunch wit…', '+3 more']);
    expect(m.day(3).lines).toEqual(['19:00 Choir']);
    expect(m.day(13).lines).toEqual(['→10:00 Hackathon']);
  });

  it('--json: every day of the month with its occurrences', async () => {
    const r = await kairos(['--json', 'cal', 'month', '2026-12']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ month: '2026-12', timezone: 'Europe/Berlin', week_start: 'monday' });
    expect(j.days).toHaveLength(31);
    expect(j.days[8].events.map((e: { from: string; event: { title: string } }) => `${e.from} ${e.event.title}`)).toEqual([
      '09:00 Budget review',
      '10:00 Lunch with Sam',
      '11:00 Dentist',
      '12:00 Call Mum',
      '13:00 Pick up parcel',
    ]);
    expect(j.days[30].events[0]).toMatchObject({ part: 'all-day', day: 2, days: 3, event: { title: 'Ski trip' } });
    expect(j.days[12].events[0]).toMatchObject({ part: 'ends', to: '10:00', day: 3, days: 3 });
  });

  it('reads MONTH as 2026-12, a name, "name year", or words; refuses a bad one with the usage exit code', async () => {
    const plain = (await kairos(['cal', 'month', '2026-12'])).stdout;
    expect((await kairos(['cal', 'month', 'december', '--week-start', 'monday'])).stdout.split('\n')[0]).toMatch(/December 20\d\d/);
    expect((await kairos(['cal', 'month', 'Dec 2026'])).stdout).toBe(plain);
    expect((await kairos(['cal', 'month', '2026-12-15'])).stdout).toBe(plain);
    const next = await kairos(['--json', 'cal', 'month', 'next month']);
    const j = JSON.parse(next.stdout);
    const [y, mo] = j.today.split('-').map(Number);
    expect(j.month).toBe(mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`);
    for (const bad of ['2026-13', '2026-12-32', 'smarch', 'someday']) {
      const e = await kairos(['cal', 'month', bad]);
      expect(e.code, bad).toBe(2);
      expect(e.stderr).toContain(`MONTH: "${bad}" is not a month; try 2026-12, december`);
    }
  });

  it('this month by default, today marked; --week-start sunday puts Sunday first', async () => {
    const r = await kairos(['cal', 'month', '--week-start', 'sunday']);
    expect(r.code, r.stderr).toBe(0);
    const m = month(r.stdout);
    expect(m.header[0]).toBe('Sun');
    const today = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', day: 'numeric' }).format(new Date()));
    expect(m.day(today).marked).toBe(true);
    expect(m.lines.filter((l) => /\[\d+\]/.test(l))).toHaveLength(1);
  });

  it('a month over six weeks', async () => {
    // August 2026 starts on a Saturday and has 31 days.
    expect(month((await kairos(['cal', 'month', '2026-08'])).stdout).weeks).toBe(6);
  });

  it('the pipe rule: plain text on a pipe, the same lines in colour on a terminal', async () => {
    const piped = await spawned(['cal', 'month', '2026-12'], { NO_COLOR: undefined });
    expect(piped.stdout).not.toMatch(/\x1b\[/);
    expect(piped.stderr).toBe('');
    expect(() => JSON.parse(piped.stdout)).toThrow();
    if (!hasScript) return;
    const t = new Terminal(['cal', 'month', '2026-12'], cliEnv({ NO_COLOR: undefined }));
    expect(await t.exited).toBe(0);
    expect(t.raw).toMatch(/\x1b\[/);
    expect(strip(t.raw).replace(/\r/g, '').trimEnd()).toBe(piped.stdout.trimEnd());
  });
});
