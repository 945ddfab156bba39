import { describe, expect, it } from 'vitest';
import { normalizeEvent } from '../../../../src/domain/calendar/normalize-event.js';
import { busyOf, occurrencesIn, type StoredEvent, span } from '../../../../src/domain/calendar/occurrences.js';
import { wallAt } from '../../../../src/time/zone-cache.js';
import { storedEvent } from '../../../helpers/stored-event.js';

const at = (s: string) => Date.parse(s);

const series = (over: Partial<StoredEvent>): StoredEvent => storedEvent({ uid: 'ev_test', title: 'Weekly', ...over });

const localTimes = (items: { scheduled_for: string }[], tz: string) =>
  items.map((i) => {
    const w = wallAt(at(i.scheduled_for), tz);
    return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
  });

describe('expanding a series in its zone', () => {
  it('keeps 09:00 in Berlin across the March DST change (UTC 08:00 → 07:00)', () => {
    const e = series({ scheduled_for: '2031-03-24T08:00:00.000Z', rrule: 'FREQ=DAILY;COUNT=10' });
    const items = occurrencesIn(e, at('2031-03-01T00:00:00Z'), at('2031-05-01T00:00:00Z'));
    expect(items).toHaveLength(10);
    expect(localTimes(items, 'Europe/Berlin').every((t) => t.endsWith('09:00'))).toBe(true);
    expect(items[5]!.scheduled_for).toBe('2031-03-29T08:00:00.000Z');
    expect(items[6]!.scheduled_for).toBe('2031-03-30T07:00:00.000Z');
    expect(items.every((i) => i.occurrence_of === 'ev_test' && i.recurrence_id === i.scheduled_for)).toBe(true);
  });

  it('keeps 09:00 in Berlin across the October change (UTC 07:00 → 08:00)', () => {
    const e = series({ scheduled_for: '2031-10-20T07:00:00.000Z', rrule: 'FREQ=WEEKLY;BYDAY=MO,TH' });
    const items = occurrencesIn(e, at('2031-10-20T00:00:00Z'), at('2031-11-04T00:00:00Z'));
    expect(localTimes(items, 'Europe/Berlin')).toEqual(['2031-10-20 09:00', '2031-10-23 09:00', '2031-10-27 09:00', '2031-10-30 09:00', '2031-11-03 09:00']);
    expect(items.map((i) => i.scheduled_for.slice(11, 16))).toEqual(['07:00', '07:00', '08:00', '08:00', '08:00']);
  });

  it('keeps 09:30 in New York across both changes, with UNTIL given in UTC', () => {
    const e = series({ timezone: 'America/New_York', scheduled_for: '2031-03-03T14:30:00.000Z', rrule: 'FREQ=WEEKLY;UNTIL=20310317T133000Z' });
    const items = occurrencesIn(e, at('2031-03-01T00:00:00Z'), at('2031-04-01T00:00:00Z'));
    // 2031-03-17 09:30 EDT is 13:30Z: UNTIL includes it.
    expect(items.map((i) => i.scheduled_for)).toEqual(['2031-03-03T14:30:00.000Z', '2031-03-10T13:30:00.000Z', '2031-03-17T13:30:00.000Z']);
    const fall = series({ timezone: 'America/New_York', scheduled_for: '2031-10-27T13:30:00.000Z', rrule: 'FREQ=WEEKLY;COUNT=2' });
    expect(localTimes(occurrencesIn(fall, at('2031-10-01T00:00:00Z'), at('2031-12-01T00:00:00Z')), 'America/New_York')).toEqual([
      '2031-10-27 09:30',
      '2031-11-03 09:30',
    ]);
  });

  it('moves an occurrence that falls into the spring gap forward by the gap', () => {
    const e = series({ scheduled_for: '2031-03-28T01:30:00.000Z', rrule: 'FREQ=DAILY;COUNT=4' }); // 02:30 Berlin
    expect(localTimes(occurrencesIn(e, at('2031-03-27T00:00:00Z'), at('2031-04-05T00:00:00Z')), 'Europe/Berlin')).toEqual([
      '2031-03-28 02:30',
      '2031-03-29 02:30',
      '2031-03-30 03:30',
      '2031-03-31 02:30',
    ]);
  });

  it('honours EXDATEs, RDATEs and overridden instances (moved into and out of the range)', () => {
    const e = series({
      scheduled_for: '2031-01-06T08:00:00.000Z',
      rrule: 'FREQ=WEEKLY;COUNT=5',
      exdates: ['2031-01-13T08:00:00.000Z'],
      rdates: ['2031-01-15T12:00:00.000Z'],
      overrides: [
        { recurrence_id: '2031-01-20T08:00:00.000Z', scheduled_for: '2031-01-21T15:00:00.000Z', duration_minutes: 30, title: 'Moved' },
        { recurrence_id: '2031-01-27T08:00:00.000Z', scheduled_for: '2031-02-10T08:00:00.000Z', duration_minutes: 60 },
      ],
    });
    const items = occurrencesIn(e, at('2031-01-01T00:00:00Z'), at('2031-02-01T00:00:00Z'));
    expect(items.map((i) => [i.scheduled_for, i.title, i.duration_minutes])).toEqual(
      [
        ['2031-01-06T08:00:00.000Z', 'Weekly', 60],
        ['2031-01-15T12:00:00.000Z', 'Weekly', 60],
        ['2031-01-21T15:00:00.000Z', 'Moved', 30],
        ['2031-02-03T08:00:00.000Z', 'Weekly', 60],
      ].filter(([s]) => (s as string) < '2031-02-01'),
    );
    expect(items.find((i) => i.title === 'Moved')!.recurrence_id).toBe('2031-01-20T08:00:00.000Z');
    // The instance moved to February shows up there, under its original recurrence id.
    const feb = occurrencesIn(e, at('2031-02-09T00:00:00Z'), at('2031-02-11T00:00:00Z'));
    expect(feb.map((i) => i.recurrence_id)).toEqual(['2031-01-27T08:00:00.000Z']);
  });

  it('includes an occurrence that started before the range but reaches into it', () => {
    const e = series({ scheduled_for: '2031-01-05T22:00:00.000Z', duration_minutes: 180, rrule: 'FREQ=DAILY' });
    const items = occurrencesIn(e, at('2031-01-10T00:00:00Z'), at('2031-01-10T06:00:00Z'));
    expect(items.map((i) => i.scheduled_for)).toEqual(['2031-01-09T22:00:00.000Z']);
  });

  it('all-day series stay on their dates in their zone, over DST', () => {
    const core = normalizeEvent({
      title: 'Holiday',
      scheduled_for: '2031-03-28',
      all_day: true,
      duration_minutes: 2880,
      timezone: 'Europe/Berlin',
      rrule: 'FREQ=WEEKLY;COUNT=2',
    });
    expect(core.scheduled_for).toBe('2031-03-27T23:00:00.000Z');
    const e = series({ ...core, uid: 'ev_allday' } as Partial<StoredEvent>);
    const items = occurrencesIn(e, at('2031-03-01T00:00:00Z'), at('2031-05-01T00:00:00Z'));
    expect(items.map((i) => i.scheduled_for)).toEqual(['2031-03-27T23:00:00.000Z', '2031-04-03T22:00:00.000Z']);
    // Two local days, though the first pair has only 47 hours.
    expect(busyOf(items[0]!)).toMatchObject({ end: at('2031-03-29T23:00:00Z') });
  });

  it('knows the span of finite and endless series', () => {
    expect(span(series({ rrule: 'FREQ=DAILY' })).last).toBeUndefined();
    expect(span(series({ scheduled_for: '2031-01-06T08:00:00.000Z', rrule: 'FREQ=WEEKLY;COUNT=3' })).last).toBe(at('2031-01-20T09:00:00Z'));
  });
});

describe('huge RDATE lists (issue 14: a spread of 150,000 arguments overflowed the stack)', () => {
  it('span, expansion and busy intervals of a series with 150,000 RDATEs answer without a RangeError', () => {
    const rdates = Array.from({ length: 150_000 }, (_, i) => new Date(Date.UTC(2031, 0, 1, 9) + i * 3_600_000).toISOString());
    const e = series({ scheduled_for: '2031-01-01T09:00:00.000Z', rrule: undefined, rdates, duration_minutes: 30 });
    const s = span(e);
    expect(s.first).toBe(at('2031-01-01T09:00:00Z'));
    expect(s.last).toBe(at(rdates[rdates.length - 1]!) + 30 * 60_000);
    const items = occurrencesIn(e, at('2031-01-02T00:00:00Z'), at('2031-01-03T00:00:00Z'));
    expect(items).toHaveLength(24);
    // An occurrence does not repeat the series' 150,000 RDATEs.
    expect(items[0]!.rdates).toBeUndefined();
    expect(items.map(busyOf).every(Boolean)).toBe(true);
  });
});
