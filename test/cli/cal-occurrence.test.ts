import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// `--occurrence` takes the local date and time `cal list` shows, in the user's zone (issue 19).
const d = useApp();
let env: Record<string, string | undefined>;
const TZ = 'Europe/Berlin';

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { updates: { timezone: TZ } } });
  // The machine's zone must not matter.
  env = appCliEnv(d, { TZ: 'Asia/Tokyo' });
});

const cal = (...args: string[]) => runCliInProcess(['cal', ...args], { env });

describe('kairos cal edit/rm --occurrence', () => {
  let uid: string;

  it('edit takes the local time cal list shows and answers with the edited occurrence', async () => {
    const add = await cal('add', 'Standup', '--at', '2031-12-01T09:00:00+01:00', '--for', '15m', '--repeat', 'daily, 10 times', '--json');
    expect(add.code, add.stderr).toBe(0);
    uid = JSON.parse(add.stdout).uid;
    const list = await cal('list', '--from', '2031-12-07', '--to', '2031-12-08');
    expect(list.stdout).toMatch(/^Sun 2031-12-07\n {2}09:00–09:15 {2}Standup/);
    const r = await cal('edit', uid, '--occurrence', '2031-12-07 09:00', '--at', '2031-12-07T10:30:00+01:00');
    expect(r.code, r.stderr).toBe(0);
    // Not the series' first date (Mon 2031-12-01): the occurrence that was changed, and where it is now.
    expect(r.stdout).toMatch(
      new RegExp(`^Updated the Sun 2031-12-07 09:00 occurrence of ${uid} “Standup” \\(version 2\\): Sun 2031-12-07 10:30–10:45 \\(Europe/Berlin\\)\\n$`),
    );
    const after = await cal('list', '--from', '2031-12-07', '--to', '2031-12-08', '--json');
    expect(JSON.parse(after.stdout).events.map((e: any) => [e.recurrence_id, e.scheduled_for])).toEqual([
      ['2031-12-07T08:00:00.000Z', '2031-12-07T09:30:00.000Z'],
    ]);
  });

  it('a moved occurrence is found where cal list now shows it; an ISO instant still works', async () => {
    const r = await cal('edit', uid, '--occurrence', '2031-12-07 10:30', '--title', 'Late standup');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/“Late standup” \(version 3\): Sun 2031-12-07 10:30–10:45/);
    const iso = await cal('edit', uid, '--occurrence', '2031-12-08T08:00:00Z', '--title', 'Monday standup');
    expect(iso.code, iso.stderr).toBe(0);
    expect(iso.stdout).toMatch(/^Updated the Mon 2031-12-08 09:00 occurrence of .*: Mon 2031-12-08 09:00–09:15/);
  });

  it('a time with no occurrence exits 5 and names what the day has; a date alone finds the one occurrence', async () => {
    const miss = await cal('edit', uid, '--occurrence', '2031-12-09 08:00', '--title', 'x');
    expect(miss.code).toBe(5);
    expect(miss.stderr).toMatch(/^kairos: --occurrence: .* has no occurrence at 2031-12-09 08:00 \(Europe\/Berlin\)\. That day it has: Tue 2031-12-09 09:00\./);
    const day = await cal('edit', uid, '--occurrence', '2031-12-09', '--set', 'status=cancelled');
    expect(day.code, day.stderr).toBe(0);
    expect(day.stdout).toMatch(/Tue 2031-12-09 09:00–09:15 \(Europe\/Berlin\) \(cancelled\)/);
  });

  it('rm --occurrence takes the local time and names the event', async () => {
    const r = await cal('rm', uid, '--occurrence', '2031-12-10 09:00', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Removed the Wed 2031-12-10 09:00 occurrence of ${uid} “Standup”\n`);
    const list = await cal('list', '--from', '2031-12-10', '--to', '2031-12-11', '--json');
    expect(JSON.parse(list.stdout).events).toEqual([]);
  });
});
