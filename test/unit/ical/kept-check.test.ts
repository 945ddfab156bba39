import { describe, expect, it } from 'vitest';
import { keepableLines } from '../../../src/ical/kept-check.js';

/** A VEVENT that passes, with `change` applied to its lines. */
const event = (change: (lines: string[]) => string[] = (l) => l) =>
  change(['BEGIN:VEVENT', 'UID:a@example', 'DTSTAMP:20250101T000000Z', 'DTSTART:20310101T090000Z', 'DTEND:20310101T100000Z', 'SUMMARY:Meet', 'END:VEVENT']);
const withLine = (line: string) => event((l) => [...l.slice(0, -1), line, 'END:VEVENT']);
const without = (name: string) => event((l) => l.filter((x) => !x.startsWith(name)));

describe('which event text is written back out as the file wrote it', () => {
  it('keeps valid text: unknown properties, parameters, an alarm, a folded line', () => {
    expect(keepableLines(event())).toBe(true);
    expect(keepableLines(withLine('ATTENDEE;CN="Ann, A.";PARTSTAT=ACCEPTED:mailto:ann@example'))).toBe(true);
    expect(keepableLines(event((l) => [...l.slice(0, -1), 'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'END:VALARM', 'END:VEVENT']))).toBe(true);
    expect(keepableLines(withLine(`X-NOTE:${'a'.repeat(100)}`).flatMap((l) => (l.length > 75 ? [l.slice(0, 70), ` ${l.slice(70)}`] : [l])))).toBe(true);
  });

  it.each([
    ['a line over 75 octets', withLine(`X-NOTE:${'a'.repeat(80)}`)],
    ['a malformed content line', withLine('X-NOTE;BROKEN')],
    ['a duration RFC 5545 does not have', withLine('DURATION:PT-2H')],
    ['a week count inside the time part', event((l) => [...l.filter((x) => !x.startsWith('DTEND')).slice(0, -1), 'DURATION:PT1W', 'END:VEVENT'])],
    ['an alarm trigger that is not a duration', event((l) => [...l.slice(0, -1), 'BEGIN:VALARM', 'TRIGGER:soon', 'END:VALARM', 'END:VEVENT'])],
    ['a UTC offset of 53 hours', ['BEGIN:STANDARD', 'DTSTART:19701025T030000', 'TZOFFSETFROM:+5328', 'TZOFFSETTO:+0100', 'END:STANDARD']],
    ['no DTSTAMP', without('DTSTAMP')],
    ['no SUMMARY (kairos names it "(no title)")', without('SUMMARY')],
    ['a SUMMARY kairos trims', event((l) => l.map((x) => (x === 'SUMMARY:Meet' ? 'SUMMARY:Meet ' : x)))],
    ['DTEND a date next to a date-time DTSTART', event((l) => l.map((x) => (x.startsWith('DTEND') ? 'DTEND;VALUE=DATE:20310102' : x)))],
    ['DTEND and DURATION', withLine('DURATION:PT1H')],
    ['two RRULEs', event((l) => [...l.slice(0, -1), 'RRULE:FREQ=DAILY;COUNT=2', 'RRULE:FREQ=WEEKLY;COUNT=2', 'END:VEVENT'])],
    [
      'an all-day series with a date-time UNTIL',
      event((l) => [
        ...l.filter((x) => !/^DT(START|END)/.test(x)).slice(0, -1),
        'DTSTART;VALUE=DATE:20310101',
        'RRULE:FREQ=DAILY;UNTIL=20310110T220000Z',
        'END:VEVENT',
      ]),
    ],
    ['an unclosed component', event().slice(0, -1)],
  ])('writes from its fields an event with %s', (_, lines) => {
    expect(keepableLines(lines)).toBe(false);
  });
});
