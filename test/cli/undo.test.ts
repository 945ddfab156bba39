import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// `kairos undo` against the real daemon: it says what it will do, then takes back an executed
// plan, an event edit and an import; run again it walks further back.

const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const events = async () => (await d.api('GET', '/calendar/events?expand=false')).json.events as any[];
const ics = (n: number) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    ...Array.from({ length: n }, (_, i) => [
      'BEGIN:VEVENT',
      `UID:undo-${i}@test`,
      'DTSTAMP:20310101T000000Z',
      `DTSTART:203102${String(i + 1).padStart(2, '0')}T090000Z`,
      'DURATION:PT30M',
      `SUMMARY:Imported ${i}`,
      'END:VEVENT',
    ]).flat(),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('kairos undo', () => {
  it('walks back an import, an edit and an executed plan, newest first, saying what it does', async () => {
    const plan = await d.api('POST', '/agent/plan', {
      body: { task_id: 'undo', actions: [{ kind: 'add_event', title: 'Gym', scheduled_for: '2031-01-06T07:00:00Z', duration_minutes: 60 }] },
    });
    expect(plan.status, plan.text).toBe(201);
    expect((await kairos(['approve', plan.json.plan_id])).code).toBe(0);
    const dentist = await d.api('POST', '/calendar/create', { body: { title: 'Dentist', scheduled_for: '2031-01-07T15:00:00Z', duration_minutes: 45 } });
    const edited = await kairos(['cal', 'edit', dentist.json.uid, '--title', 'Dentist (moved)']);
    expect(edited.code, edited.stderr).toBe(0);
    const file = join(d.home, 'week.ics');
    writeFileSync(file, ics(5));
    const imp = await kairos(['--json', 'cal', 'import', file]);
    expect(imp.code, imp.stderr).toBe(0);
    const report = JSON.parse(imp.stdout);
    expect(report.imported).toBe(5);

    // One trace for the whole import, not one per event.
    const traces = (await d.api('GET', '/memory/pull?task_id=calendar&limit=1000')).json.traces as any[];
    expect(traces.filter((t) => t.fields?.action === 'created' && /Imported \d/.test(t.content))).toHaveLength(0);
    expect(traces.filter((t) => t.fields?.action === 'imported')).toHaveLength(1);

    const list = await kairos(['undo', '--list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n').filter((l) => /import|edit|plan/.test(l)).length).toBeGreaterThanOrEqual(3);

    // Without a terminal it names what it would do and wants --yes.
    const ask = await kairos(['undo']);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('remove the 5 events this import created');

    expect((await kairos(['undo', '--yes'])).code).toBe(0);
    expect((await events()).filter((e) => e.title.startsWith('Imported'))).toHaveLength(0);

    const edit = await kairos(['undo', '--yes']);
    expect(edit.code, edit.stderr).toBe(0);
    expect((await events()).find((e) => e.uid === dentist.json.uid).title).toBe('Dentist');

    // The Dentist was added by hand after the plan ran: it goes first.
    expect((await kairos(['undo', '--yes'])).code).toBe(0);
    expect((await events()).find((e) => e.uid === dentist.json.uid)).toBeUndefined();

    const back = await kairos(['undo', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect((await events()).find((e) => e.title === 'Gym')).toBeUndefined();
    const after = (await d.api('GET', `/agent/plans/${plan.json.plan_id}`)).json;
    expect(after.status).toBe('edited');

    const none = await kairos(['undo', '--yes']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('Nothing to undo');
  });

  it('cal rm-many removes what one import created', async () => {
    const file = join(d.home, 'more.ics');
    writeFileSync(file, ics(3).replaceAll('undo-', 'bulk-'));
    const report = JSON.parse((await kairos(['--json', 'cal', 'import', file])).stdout);
    const r = await kairos(['cal', 'rm-many', '--import', report.import_id, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed 3 events');
  });
});
