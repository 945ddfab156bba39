import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { prepareImport } from '../../../../src/domain/calendar/import-check.js';
import { parseIcs } from '../../../../src/ical/import.js';
import { describeShared, itShared, SHARED } from '../../../helpers/shared.js';

/**
 * Issue 18's classes of wrong occurrences, each on a real file of ../shared/fixtures/ics (read
 * here, never copied into the project): what the import makes of the file, checked before it is
 * stored. The listing of the same files is the conformance run (test/conformance).
 */
const read = (path: string) => readFileSync(join(SHARED, 'fixtures/ics', path), 'utf8');
const NY = 'America/New_York';
const importOf = (path: string, tz = NY) => prepareImport(read(path), tz, parseIcs);
const event = (r: ReturnType<typeof prepareImport>, uid: string) => {
  const e = r.checked.find((c) => c.uid === uid);
  expect(e, `no event ${uid}`).toBeDefined();
  return e!.core;
};

describeShared('iCalendar import fidelity (issue 18)', () => {
  itShared('1. every VCALENDAR of a stream is read, not only the last (RFC 5545 §3.4)', () => {
    const r = importOf('external/corpus/icalendar/calendars/multiple_calendar_components.ics');
    expect(r.checked.map((c) => c.uid).sort()).toEqual(['911737808', '956630271', 'wh4t3v3r']);
    expect(event(r, '956630271')).toMatchObject({ title: 'Christmas Day', scheduled_for: '2003-12-25T05:00:00.000Z', all_day: true });
  });

  itShared("2. a file's own VTIMEZONE that no IANA zone matches gives the times", () => {
    const fixed = importOf('external/corpus/icaljs/samples/timezone_from_file.ics');
    expect(fixed.checked[0]!.core.scheduled_for).toBe('2023-03-06T21:23:00.000Z');
    const custom = importOf('external/corpus/icalendar/calendars/issue_722_timezone_transition_ambiguity.ics');
    expect(Object.fromEntries(custom.checked.map((c) => [c.uid, c.core.scheduled_for]))).toEqual({
      '0': '2024-03-02T20:00:00.000Z',
      '1': '2024-08-02T22:00:00.000Z',
      '2': '2024-05-04T22:00:01.000Z',
      '3': '2024-05-04T19:00:01.000Z',
    });
  });

  itShared('3. TZID=UTC+11 with its own VTIMEZONE: the offset applied once', () => {
    const r = importOf('external/corpus/icalendar/calendars/issue_218_bad_tzid.ics');
    expect(event(r, '1961094_636238800000000000')).toMatchObject({ scheduled_for: '2017-02-28T12:00:00.000Z', duration_minutes: 30 });
  });

  itShared('4. overridden instances whose series is not in the file: one event each', () => {
    const r = importOf('external/corpus/rie/issue_173_only_modifications_error.ics');
    const uids = r.checked.map((c) => c.uid);
    expect(new Set(uids).size).toBe(uids.length);
    expect(r.errors).toEqual([]);
  });

  itShared('5. an all-day series keeps its UNTIL date west of UTC (RFC 5545 §3.3.10: a DATE, like DTSTART)', () => {
    const r = importOf('external/corpus/rie/issue_4_weidenrinde.ics');
    expect(event(r, '2334a952-f89f-4308-9639-fc22dc70519f')).toMatchObject({ all_day: true, rrule: expect.stringMatching(/UNTIL=20190830(;|$)/) });
  });

  itShared('7. RDATE;VALUE=PERIOD keeps its own length (RFC 7265 "additional meeting, 2 hours long")', () => {
    const rfc = importOf('external/corpus/icalendar/calendars/rfc_7265_appendix_example_2_ical.ics');
    const e = event(rfc, '00959BC664CA650E933C892C@example.com');
    expect(e.overrides).toContainEqual(expect.objectContaining({ recurrence_id: '2006-01-02T20:00:00.000Z', duration_minutes: 120 }));
    const rie = importOf('external/corpus/rie/issue_113_period_rdate_duration.ics');
    expect(rie.checked[0]!.core.overrides).toEqual([
      { recurrence_id: '2024-09-13T12:00:00.000Z', scheduled_for: '2024-09-13T12:00:00.000Z', duration_minutes: 120 },
    ]);
  });

  itShared('8. EXDATE;VALUE=DATE on a timed series excludes that day', () => {
    const r = importOf('external/corpus/icaljs/samples/rdate_exdate.ics');
    expect(event(r, '123').exdates).toEqual(['2024-06-11T03:00:00.000Z']);
  });

  itShared('9. RECURRENCE-ID;RANGE=THISANDFUTURE changes every later instance (RFC 5545 §3.8.4.4)', () => {
    const e = event(importOf('external/corpus/rie/issue_75_range_parameter.ics'), '210');
    const at = (rid: string) => e.overrides?.find((o) => o.recurrence_id === rid);
    // Moved 3 h earlier and 7 h long from 2024-09-13; the RDATE of 2024-09-14 is moved too.
    expect(at('2024-09-17T12:00:00.000Z')).toMatchObject({ scheduled_for: '2024-09-17T09:00:00.000Z', duration_minutes: 420, title: 'MODIFIED EVENT' });
    expect(at('2024-09-14T09:00:00.000Z')).toMatchObject({ scheduled_for: '2024-09-14T06:00:00.000Z', duration_minutes: 420 });
    // A single instance's own override wins; a later range replaces the earlier one.
    expect(at('2024-09-15T12:00:00.000Z')).toMatchObject({ scheduled_for: '2024-09-15T17:00:00.000Z', duration_minutes: 120 });
    expect(at('2024-09-23T12:00:00.000Z')).toMatchObject({ scheduled_for: '2024-09-24T14:22:00.000Z', duration_minutes: 111, title: 'EDITED EVENT' });
  });

  itShared('10. literal quotes stay in a SUMMARY; an override that makes an instance all-day keeps all_day', () => {
    const q = importOf('external/corpus/rie/machbar_16_feb_2019.ics');
    expect(event(q, '4pudsugalsbuqetcfdns8demti@google.com').title).toBe('"Bioökonomie-Tag"');
    const d = event(importOf('external/corpus/rie/recurring_events_changed_duration.ics'), 'a0c78729-30b1-4ba3-a86e-6aedd995d788');
    expect(d.overrides?.find((o) => o.recurrence_id === '2019-03-10T01:00:00.000Z')).toMatchObject({
      all_day: true,
      scheduled_for: '2019-03-10T05:00:00.000Z',
    });
  });

  itShared('11. a VEVENT without UID whose RECURRENCE-ID is written twice costs at most itself', () => {
    const text = read('external/corpus/icalendar/calendars/issue_722_missing_timezones.ics').replace(
      /^(RECURRENCE-ID[^\r\n]*)(\r?\n)/m,
      '$1$2$1$2DTSTART:20190309T020000Z$2',
    );
    const r = prepareImport(text, NY, parseIcs);
    expect(r.checked.length + r.errors.length).toBeGreaterThan(0);
  });

  itShared('12a. an empty RRULE (CalendarLabs feeds) drops the rule, not the event, with a warning', () => {
    const r = importOf('external/corpus/rie/Germany_Holidays.ics');
    expect(r.errors).toEqual([]);
    expect(r.checked.length).toBeGreaterThan(20);
    expect(r.warnings.filter((w) => /RRULE/.test(w.message)).length).toBe(r.checked.length);
  });

  itShared('12b. COUNT next to UNTIL (forbidden by §3.3.10): COUNT dropped, the rule kept', () => {
    const r = importOf('external/corpus/rie/issue_128_only_first_event.ics');
    expect(r.checked[0]!.core.rrule).toBe('FREQ=WEEKLY;UNTIL=20240331;INTERVAL=4;BYDAY=MO');
  });

  itShared('12c. a DTSTART its rule does not give stays the first instance (RFC 5545 §3.8.5.3)', () => {
    const r = importOf('external/corpus/icaljs/samples/multiple_rrules.ics');
    const e = event(r, '1334F9B7-6136-444E-A58D-472564C6AA73');
    // Monday 2012-03-26 11:00 Los Angeles; the second (finite) RRULE's Sundays became RDATEs.
    expect(e.scheduled_for).toBe('2012-03-26T18:00:00.000Z');
    expect(e.rdates).toContain('2012-04-01T18:00:00.000Z');
  });

  itShared('12d. a vendor prefix before an IANA name is stripped (`/freeassociation.sourceforge.net/…`)', () => {
    const r = importOf('external/corpus/icalendar/calendars/issue_313_globally_unique_tzid.ics');
    expect(event(r, 'libical-evolution@issue-313')).toMatchObject({ timezone: 'Europe/Berlin', scheduled_for: '2020-04-26T12:00:00.000Z' });
    expect(event(r, 'multipart-olson@issue-313')).toMatchObject({ timezone: 'America/Argentina/Buenos_Aires', scheduled_for: '2020-04-26T17:00:00.000Z' });
  });

  itShared('12e. `END:VTOOD` no longer swallows the events after it, and each broken to-do is an error', () => {
    const r = importOf('external/corpus/rie/issue_201_test_matrix.ics');
    expect(r.checked.length).toBe(15);
    // 15 to-dos end in END:VTOOD; the last is closed by END:VCALENDAR and swallowed nothing (a warning).
    expect(r.errors).toHaveLength(14);
    for (const e of r.errors) expect(e.message).toMatch(/BEGIN:VTODO is never closed/);
  });
});
