import { expect } from 'vitest';

/**
 * Calendar objects as other calendar programs write them, with what kairos does not model:
 * an invitation (ORGANIZER, ATTENDEEs with parameters), an alarm, two categories, CLASS, TRANSP,
 * PRIORITY, URL, X- properties and an X- component; and a weekly series in a named zone with
 * EXDATEs and overrides, one of them without the series' LOCATION.
 */

const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

export const RICH_UID = 'rich-1@other.example';

/** One rich event (UTC times), as another client PUTs it. */
export const richEvent = (summary = 'Budget review') =>
  crlf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Other Corp//Other Calendar 9.1//EN',
    'BEGIN:VEVENT',
    `UID:${RICH_UID}`,
    'DTSTAMP:20250101T000000Z',
    'CREATED:20240501T120000Z',
    'LAST-MODIFIED:20250101T000000Z',
    'SEQUENCE:3',
    'DTSTART:20310610T130000Z',
    'DTEND:20310610T140000Z',
    `SUMMARY:${summary}`,
    'DESCRIPTION:Numbers for Q3\\, slides attached.',
    'LOCATION:Room 4',
    'ORGANIZER;CN="Olga Organizer":mailto:olga@other.example',
    'ATTENDEE;CN="Ann Attendee";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:ann@other.example',
    'ATTENDEE;CN=Bob;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:bob@other.example',
    'CATEGORIES:Work,Budget',
    'CLASS:CONFIDENTIAL',
    'TRANSP:TRANSPARENT',
    'PRIORITY:2',
    'URL:https://other.example/meetings/42',
    'X-OTHER-COLOR:#ff8800',
    'X-OTHER-NOTE;X-LANG=en:a vendor property with a long value that the other program folds because it is longer than',
    '  seventy-five octets',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'DESCRIPTION:Reminder',
    'TRIGGER:-PT15M',
    'END:VALARM',
    'BEGIN:X-OTHER-THING',
    'X-OTHER-KEY:kept',
    'END:X-OTHER-THING',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);

export const SERIES_UID = 'series-1@other.example';

/** A weekly Monday series at 09:00 Berlin time, EXDATE 2031-06-16, and two overrides: 06-09 moved (own LOCATION) and 06-23 without LOCATION. */
export const berlinSeries = (summary = 'Weekly sync') =>
  crlf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Other Corp//Other Calendar 9.1//EN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${SERIES_UID}`,
    'DTSTAMP:20250101T000000Z',
    'CREATED:20240501T120000Z',
    'SEQUENCE:1',
    'DTSTART;TZID=Europe/Berlin:20310602T090000',
    'DTEND;TZID=Europe/Berlin:20310602T093000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
    'EXDATE;TZID=Europe/Berlin:20310616T090000',
    `SUMMARY:${summary}`,
    'LOCATION:Room 1',
    'ATTENDEE;CN=Ann:mailto:ann@other.example',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'DESCRIPTION:Soon',
    'TRIGGER:-PT5M',
    'END:VALARM',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${SERIES_UID}`,
    'DTSTAMP:20250101T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20310609T090000',
    'DTSTART;TZID=Europe/Berlin:20310609T110000',
    'DTEND;TZID=Europe/Berlin:20310609T113000',
    `SUMMARY:${summary}`,
    'LOCATION:Room 9',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${SERIES_UID}`,
    'DTSTAMP:20250101T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20310623T090000',
    'DTSTART;TZID=Europe/Berlin:20310623T090000',
    'DTEND;TZID=Europe/Berlin:20310623T100000',
    `SUMMARY:${summary} (long)`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]);

/** Unfolded content lines of iCalendar text. */
export const unfolded = (ics: string) =>
  ics
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter(Boolean);

interface Api {
  api: (method: string, url: string, o?: { raw?: string; headers?: Record<string, string> }) => Promise<{ status: number; text: string; json: any }>;
}

/** Import a calendar text and read the export back, through the API of `a` (asserting 200s). */
export const icsApi = (a: Api) => ({
  importIcs: async (ics: string) => {
    const r = await a.api('POST', '/calendar/import', { raw: ics, headers: { 'content-type': 'text/calendar' } });
    expect(r.status, r.text).toBe(200);
    return r.json;
  },
  exported: async () => {
    const r = await a.api('GET', '/calendar/export.ics');
    expect(r.status).toBe(200);
    return r.text;
  },
});
