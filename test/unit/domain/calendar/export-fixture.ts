import type { EventSource } from '../../../../src/contracts/stored.js';
import type { StoredEvent } from '../../../../src/domain/calendar/occurrences.js';
import type { Store } from '../../../../src/store/store.js';
import { storedEvent } from '../../../helpers/stored-event.js';

/** The fixed calendar the export's golden files were written from: one of each kind of VEVENT. */
export const NOW = new Date('2031-06-01T12:00:00.000Z');
export const USER = 'usr_1';

const ev = (over: Partial<StoredEvent>): StoredEvent => storedEvent({ updated_at: '2031-01-02T00:00:00.000Z', version: 2, ...over });

const KEPT_ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Example Corp//Server//EN',
  'BEGIN:VTIMEZONE',
  'TZID:Custom/Zone',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'UID:kept-1@example.com',
  'DTSTAMP:20310101T000000Z',
  'DTSTART;TZID=Europe/Berlin:20310310T090000',
  'DTEND;TZID=Europe/Berlin:20310310T100000',
  'SUMMARY:Kept from the server',
  'X-EXAMPLE-PRIVATE:kept as it was',
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Reminder',
  'TRIGGER:-PT15M',
  'END:VALARM',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

export const EVENTS: StoredEvent[] = [
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
  ev({ uid: 'ev_utc', timezone: 'UTC', description: 'line one\nline two', location: 'Room 1, 2nd floor', tag: '@meetings' }),
  ev({ uid: 'ev_allday', all_day: true, scheduled_for: '2031-03-27T23:00:00.000Z', duration_minutes: 2880 }),
  ev({
    uid: 'ev_long',
    timezone: 'Asia/Tokyo',
    scheduled_for: '2031-04-02T01:00:00.000Z',
    description: `${'é'.repeat(3000)} ${'ü, ; \\ '.repeat(400)}`,
    rdates: ['2031-04-09T01:00:00.000Z', '2031-04-16T02:00:00.000Z'],
  }),
  ev({ uid: 'ev_endless', timezone: 'Australia/Sydney', scheduled_for: '2030-12-31T22:00:00.000Z', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' }),
  ev({ uid: 'ev_kept', ical_uid: 'kept-1@example.com', source: 'caldav', scheduled_for: '2031-03-10T08:00:00.000Z', title: 'Kept from the server, edited' }),
  ev({ uid: 'ev_other', user_id: 'usr_2', title: 'Not this user' }),
];

const KEPT: EventSource = {
  uid: 'ev_kept',
  user_id: USER,
  ics: KEPT_ICS,
  base: {
    title: 'Kept from the server',
    scheduled_for: '2031-03-10T08:00:00.000Z',
    duration_minutes: 60,
    task_id: null,
    tag: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    status: 'confirmed',
  },
};

/** The fixed calendar, stored. */
export const putCalendar = (store: Store) =>
  store.transact((tx) => {
    for (const e of EVENTS) tx.put('events', e);
    tx.put('event_sources', KEPT);
  });

/** The queries the golden files answer: the feed (all, named) and a range and tag of export.ics. */
export const QUERIES = {
  feed: { q: {}, name: 'kairos' },
  range: { q: { start: '2031-03-01', end: '2031-03-20' }, name: undefined },
  tag: { q: { tag: '@meetings' }, name: undefined },
} as const;
