import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type StoredEvent, span } from '../../../src/domain/calendar/occurrences.js';
import { toIcs } from '../../../src/ical/export.js';
import { parseIcs } from '../../../src/ical/import.js';
import { scanIcs } from '../../../src/ical/scan.js';
import { itShared, SHARED } from '../../helpers/shared.js';
import { storedEvent } from '../../helpers/stored-event.js';

const dir = mkdtempSync(join(tmpdir(), 'kairos-ical-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ev = (over: Partial<StoredEvent>): StoredEvent => storedEvent({ updated_at: '2031-01-02T00:00:00.000Z', version: 2, ...over });

const EVENTS: StoredEvent[] = [
  ev({
    uid: 'ev_berlin',
    title: 'Standup, daily; with “quotes” and a very long title that needs folding across more than seventy-five octets ✓',
    rrule: 'FREQ=WEEKLY;COUNT=6;BYDAY=MO,WE',
    exdates: ['2031-03-12T08:00:00.000Z'],
    tag: '@meetings',
    task_id: 'team',
  }),
  ev({
    uid: 'ev_ny',
    timezone: 'America/New_York',
    scheduled_for: '2031-03-03T14:30:00.000Z',
    rrule: 'FREQ=WEEKLY;UNTIL=20310331T133000Z',
    overrides: [{ recurrence_id: '2031-03-10T13:30:00.000Z', scheduled_for: '2031-03-11T13:30:00.000Z', duration_minutes: 30, title: 'Moved' }],
  }),
  ev({ uid: 'ev_utc', timezone: 'UTC', description: 'line one\nline two', location: 'Room 1, 2nd floor' }),
  ev({
    uid: 'ev_allday',
    all_day: true,
    scheduled_for: '2031-03-27T23:00:00.000Z',
    duration_minutes: 2880,
    rrule: 'FREQ=YEARLY',
    rdates: ['2033-01-01T23:00:00.000Z'],
  }),
  ev({ uid: 'imported-uid@example.com', status: 'tentative', source: 'import' }),
];

describe('export', () => {
  const text = toIcs(EVENTS, { now: new Date('2031-01-01T00:00:00Z'), spanOf: span });

  it('uses CRLF everywhere, including after the last line, and folds at 75 octets', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(/[^\r]\n/.test(text)).toBe(false);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('writes UNTIL as a DATE next to an all-day DTSTART (RFC 5545 §3.3.10), the date in the event zone', () => {
    // All-day in New York with a date-time UNTIL, as a create may store it.
    const allDay = ev({
      uid: 'ev_allday_until',
      all_day: true,
      timezone: 'America/New_York',
      scheduled_for: '2031-03-03T05:00:00.000Z',
      duration_minutes: 1440,
      rrule: 'FREQ=WEEKLY;UNTIL=20310331T035959Z',
    });
    expect(toIcs([allDay], { now: new Date('2031-01-01T00:00:00Z'), spanOf: span })).toMatch(/\r\nRRULE:FREQ=WEEKLY;UNTIL=20310330\r\n/);
  });

  itShared('passes ics-validate', () => {
    const file = join(dir, 'export.ics');
    writeFileSync(file, text);
    const out = execFileSync(join(SHARED, 'tools/ics-validate'), [file], { encoding: 'utf8', env: { ...process.env, PYENV_VERSION: 'system' } });
    expect(out).toMatch(/1 passed, 0 failed/);
  });

  it('reads back with ical.js: UIDs, TZIDs with VTIMEZONEs, rules, EXDATEs, overrides', () => {
    const cal = new ICAL.Component(ICAL.parse(text));
    for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const vevents = cal.getAllSubcomponents('vevent');
    expect(vevents.map((v) => v.getFirstPropertyValue('uid'))).toEqual(['ev_berlin', 'ev_ny', 'ev_ny', 'ev_utc', 'ev_allday', 'imported-uid@example.com']);
    const berlin = new ICAL.Event(vevents[0]!);
    expect(berlin.summary).toBe(EVENTS[0]!.title);
    expect(vevents[0]!.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Berlin');
    expect(berlin.startDate.toJSDate().toISOString()).toBe('2031-03-10T08:00:00.000Z');
    expect(String(vevents[0]!.getFirstPropertyValue('rrule'))).toBe('FREQ=WEEKLY;COUNT=6;BYDAY=MO,WE');
    expect(vevents[0]!.getFirstPropertyValue('categories')).toBe('@meetings');
    // The Berlin series expands with ical.js to 09:00 local across the DST change, minus the EXDATE.
    const it = berlin.iterator();
    const starts: string[] = [];
    for (let t = it.next(); t; t = it.next())
      if (
        !berlin.isRecurrenceException() &&
        !vevents[0]!.getAllProperties('exdate').some((p) => (p.getFirstValue() as ICAL.Time).toJSDate().getTime() === t!.toJSDate().getTime())
      )
        starts.push(t.toJSDate().toISOString());
    expect(starts).toEqual([
      '2031-03-10T08:00:00.000Z',
      '2031-03-17T08:00:00.000Z',
      '2031-03-19T08:00:00.000Z',
      '2031-03-24T08:00:00.000Z',
      '2031-03-26T08:00:00.000Z',
    ]);
    const moved = new ICAL.Event(vevents[2]!);
    expect(moved.isRecurrenceException()).toBe(true);
    expect(moved.recurrenceId.toJSDate().toISOString()).toBe('2031-03-10T13:30:00.000Z');
    expect(moved.summary).toBe('Moved');
    const allDay = new ICAL.Event(vevents[4]!);
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe('2031-03-28');
    expect(allDay.endDate.toString()).toBe('2031-03-30');
    expect(new ICAL.Event(vevents[3]!).description).toBe('line one\nline two');
    expect(vevents[5]!.getFirstPropertyValue('status')).toBe('TENTATIVE');
  });

  it('imports back to the same events (the round trip at the unit level)', () => {
    const back = parseIcs(text, 'Europe/Berlin');
    expect(back.errors).toEqual([]);
    for (const e of EVENTS) {
      const b = back.events.find((x) => x.uid === e.uid)!;
      expect(b, e.uid).toBeDefined();
      expect({
        title: b.title,
        start: b.scheduled_for,
        duration: b.duration_minutes,
        rrule: b.rrule,
        all_day: b.all_day,
        tz: b.timezone,
        exdates: b.exdates,
        rdates: b.rdates,
        overrides: b.overrides,
      }).toEqual({
        title: e.title,
        start: e.scheduled_for,
        duration: e.duration_minutes,
        rrule: e.rrule,
        all_day: e.all_day,
        tz: e.timezone,
        exdates: e.exdates,
        rdates: e.rdates,
        overrides: e.overrides,
      });
    }
  });
});

describe('import of hand-made files', () => {
  it('imports an event whose RRULE cannot be read without the rule, with a warning naming it (issue 18)', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      'UID:good',
      'DTSTART:20310101T100000Z',
      'DURATION:PT30M',
      'SUMMARY:Good',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-rule',
      'DTSTART:20310102T100000Z',
      'RRULE:FREQ=SOMETIMES',
      'SUMMARY:Bad',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const r = parseIcs(text, 'UTC');
    expect(r.events.map((e) => [e.uid, e.duration_minutes, e.rrule])).toEqual([
      ['good', 30, undefined],
      ['bad-rule', 0, undefined],
    ]);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toContainEqual({ uid: 'bad-rule', line: 10, message: expect.stringMatching(/RRULE.*FREQ=SOMETIMES/) });
  });

  it('reads floating times in the given zone and all-day dates as dates', () => {
    const text =
      'BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:f\nDTSTART:20310601T090000\nDTEND:20310601T100000\nSUMMARY:Floating\nEND:VEVENT\nBEGIN:VEVENT\nUID:d\nDTSTART;VALUE=DATE:20310601\nDTEND;VALUE=DATE:20310604\nSUMMARY:Days\nEND:VEVENT\nEND:VCALENDAR\n';
    const r = parseIcs(text, 'America/New_York');
    expect(r.events.find((e) => e.uid === 'f')).toMatchObject({
      scheduled_for: '2031-06-01T13:00:00.000Z',
      duration_minutes: 60,
      timezone: 'America/New_York',
      all_day: false,
    });
    expect(r.events.find((e) => e.uid === 'd')).toMatchObject({ scheduled_for: '2031-06-01T04:00:00.000Z', duration_minutes: 3 * 1440, all_day: true });
  });

  it('derives a stable UID for events without one', () => {
    const text = 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20310601T090000Z\nSUMMARY:No uid\nEND:VEVENT\nEND:VCALENDAR\n';
    const a = parseIcs(text, 'UTC');
    const b = parseIcs(text, 'UTC');
    expect(a.events[0]!.uid).toMatch(/^kairos-import-[0-9a-f]{24}$/);
    expect(b.events[0]!.uid).toBe(a.events[0]!.uid);
    expect(a.warnings.some((w) => /no UID/.test(w.message))).toBe(true);
  });

  it('scan: unfolds with line numbers, repairs a BOM, spaces in RRULE and empty parameters', () => {
    const s = scanIcs(
      '\ufeffBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:a long\r\n  folded line\r\nDTSTART;;VALUE=DATE:20310101\r\nRRULE:FREQ=WEEKLY;BYDAY=MO, TU\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    expect(s.events).toHaveLength(1);
    expect(s.events[0]).toMatchObject({ line: 2, uid: 'x', rrules: 1 });
    expect(s.text).toContain('SUMMARY:a long folded line');
    expect(s.text).toContain('DTSTART;VALUE=DATE:20310101');
    expect(s.text).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,TU');
    expect(s.repairs.map((r) => r.message)).toEqual(
      expect.arrayContaining(['removed a byte order mark', 'removed an empty parameter in DTSTART', 'removed spaces inside RRULE']),
    );
  });
});
