import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// `kairos undo` takes back every change a person makes by hand: an event added or removed with
// `cal add`/`cal rm`, an event edit, a trace edit, and the events an import updated.

const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const events = async () => (await d.api('GET', '/calendar/events?expand=false')).json.events as any[];
const vevent = (uid: string, title: string) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20310101T000000Z',
  'DTSTART:20310301T090000Z',
  'DURATION:PT30M',
  `SUMMARY:${title}`,
  'END:VEVENT',
];
const ics = (...ev: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...ev.flat(), 'END:VCALENDAR', ''].join('\r\n');

describe('kairos undo after changes made by hand', () => {
  it('takes back cal add, cal rm and a trace edit, newest first, and lists them', async () => {
    const keep = await d.api('POST', '/calendar/create', {
      body: { title: 'Standup', scheduled_for: '2031-01-08T09:00:00Z', duration_minutes: 15, location: 'Room 4', tag: '@work' },
    });
    const added = await kairos(['--json', 'cal', 'add', 'Dentist', '--at', '2031-01-07T15:00:00Z', '--for', '45m']);
    expect(added.code, added.stderr).toBe(0);
    const dentist = JSON.parse(added.stdout);
    const rm = await kairos(['cal', 'rm', keep.json.uid, '--yes']);
    expect(rm.code, rm.stderr).toBe(0);
    const pushed = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'undo', content: 'Slept well' }] } });
    const note = pushed.json.saved[0].uid;
    const edited = await kairos(['trace', 'edit', note, '--set', 'content=Slept badly', '--set', 'importance=5']);
    expect(edited.code, edited.stderr).toBe(0);

    const list = await kairos(['undo', '--list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/trace_edit/);
    expect(list.stdout).toMatch(/remove\s.*Standup/);
    expect(list.stdout).toMatch(/add\s.*Dentist/);

    const t1 = await kairos(['undo', '--yes']);
    expect(t1.code, t1.stderr).toBe(0);
    const trace = (await d.api('GET', '/memory/pull?task_id=undo')).json.traces.find((t: any) => t.uid === note);
    expect(trace).toMatchObject({ content: 'Slept well', importance: 3 });

    const t2 = await kairos(['undo', '--yes']);
    expect(t2.code, t2.stderr).toBe(0);
    const back = (await events()).find((e) => e.uid === keep.json.uid);
    expect(back).toMatchObject({ title: 'Standup', location: 'Room 4', tag: '@work', scheduled_for: '2031-01-08T09:00:00.000Z' });

    const t3 = await kairos(['undo', '--yes']);
    expect(t3.code, t3.stderr).toBe(0);
    expect((await events()).find((e) => e.uid === dentist.uid)).toBeUndefined();

    // Further back: the Standup as it was first added; undoing is never itself offered.
    expect((await kairos(['undo', '--yes'])).code).toBe(0);
    expect(await events()).toEqual([]);
    const none = await kairos(['undo', '--yes']);
    expect(none.code, none.stdout).toBe(5);
  });

  it('puts back the previous versions of events an import updated', async () => {
    const file = join(d.home, 'cal.ics');
    writeFileSync(file, ics(vevent('keep-1@test', 'Review'), vevent('keep-2@test', 'Lunch')));
    expect((await kairos(['cal', 'import', file])).code).toBe(0);
    writeFileSync(file, ics(vevent('keep-1@test', 'Review (moved)'), vevent('keep-2@test', 'Lunch'), vevent('new-3@test', 'Party')));
    const second = await kairos(['cal', 'import', file]);
    expect(second.code, second.stderr).toBe(0);
    const ask = await kairos(['undo']);
    expect(ask.stderr).toContain('restore 1 event it updated');
    const u = await kairos(['undo', '--yes']);
    expect(u.code, u.stderr).toBe(0);
    const titles = (await events())
      .map((e) => e.title)
      .filter((t) => t !== 'Dentist')
      .sort();
    expect(titles).toEqual(['Lunch', 'Review']);
  });
});
