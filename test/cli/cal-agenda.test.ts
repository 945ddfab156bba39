import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { parseDuration, parseWhen } from '../../src/cli/input/when.js';
import { agenda, type EventView } from '../../src/cli/output/calendar-format.js';

const plain = new Chalk({ level: 0 });
const ev = (over: Partial<EventView>): EventView => ({
  uid: 'ev_1',
  title: 'Event',
  scheduled_for: '2031-03-24T08:00:00.000Z',
  duration_minutes: 45,
  all_day: false,
  timezone: 'Europe/Berlin',
  tag: null,
  status: 'confirmed',
  ...over,
});

describe('cal agenda (TTY output)', () => {
  it('groups by local day, shows all-day events on each of their days, marks series and cancellations', () => {
    const text = agenda(
      [
        ev({ uid: 'ev_sync', title: 'Weekly sync', tag: '@meetings', rrule: 'FREQ=WEEKLY', occurrence_of: 'ev_sync' }),
        ev({ uid: 'ev_conf', title: 'Conference', all_day: true, scheduled_for: '2031-03-24T23:00:00.000Z', duration_minutes: 2880 }),
        ev({ uid: 'ev_late', title: 'Late call', scheduled_for: '2031-03-25T22:30:00.000Z', duration_minutes: 30, status: 'cancelled', location: 'Zoom' }),
      ],
      'Europe/Berlin',
      plain,
    );
    expect(text).toBe(
      [
        'Mon 2031-03-24',
        '  09:00–09:45  Weekly sync @meetings ↻  ev_sync',
        '',
        'Tue 2031-03-25',
        '  all day      Conference  ev_conf (day 1/2)',
        '  23:30–00:00  Late call @ Zoom (cancelled)  ev_late',
        '',
        'Wed 2031-03-26',
        '  all day      Conference  ev_conf (day 2/2)',
      ].join('\n'),
    );
    expect(agenda([], 'UTC', plain)).toBe('No events in this range.');
  });

  it('reads natural language in the given zone and durations in several spellings', () => {
    const now = new Date('2031-03-28T20:00:00Z'); // Friday 21:00 in Berlin, Saturday 05:00 in Tokyo
    expect(parseWhen('tomorrow 3pm', 'Europe/Berlin', now)).toBe('2031-03-29T14:00:00.000Z');
    // Sunday 2031-03-30: DST starts in Berlin, so 3pm is 13:00Z.
    expect(parseWhen('sunday 3pm', 'Europe/Berlin', now)).toBe('2031-03-30T13:00:00.000Z');
    expect(parseWhen('tomorrow 3pm', 'Asia/Tokyo', now)).toBe('2031-03-30T06:00:00.000Z');
    expect(parseWhen('2031-04-01T10:00:00+02:00', 'UTC', now)).toBe('2031-04-01T08:00:00.000Z');
    expect(parseWhen('2031-04-01', 'UTC', now)).toBe('2031-04-01');
    expect(() => parseWhen('someday', 'UTC', now)).toThrow(/is not a date or time it can read/);
    expect([parseDuration('45m'), parseDuration('1h30m'), parseDuration('2h'), parseDuration('1.5h'), parseDuration('90'), parseDuration('3d')]).toEqual([
      45, 90, 120, 90, 90, 4320,
    ]);
    expect(() => parseDuration('0m')).toThrow();
  });
});
