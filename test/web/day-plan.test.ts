import { describe, expect, it } from 'vitest';
import { conflicting, type DayEvent, planDays } from '../../web/src/day-plan.js';
import { instantOf } from '../../web/src/time.js';

const Z = 'Europe/Berlin';
const ev = (uid: string, start: string, minutes: number, extra: Partial<DayEvent> = {}): DayEvent => ({
  uid,
  title: uid,
  scheduled_for: new Date(instantOf(start.slice(0, 10), start.slice(11, 16), Z)).toISOString(),
  duration_minutes: minutes,
  all_day: false,
  status: 'confirmed',
  source: 'api',
  ...extra,
});
const at = (date: string, time: string) => instantOf(date, time, Z);

describe('the calendar’s day plan', () => {
  it('marks overlapping events as conflicts, touching ones not, cancelled ones never', () => {
    const events = [
      ev('a', '2026-12-01T09:00', 60),
      ev('b', '2026-12-01T09:30', 30),
      ev('c', '2026-12-01T10:00', 30),
      ev('d', '2026-12-01T10:10', 5, { status: 'cancelled' }),
    ];
    expect([...conflicting(events)].map((k) => k.split('@')[0]).sort()).toEqual(['a', 'b']);
  });

  it('tells occurrences of one series apart', () => {
    const s1 = ev('s', '2026-12-01T09:00', 60, { recurrence_id: '2026-12-01T08:00:00Z' });
    const other = ev('x', '2026-12-01T09:15', 15);
    const s2 = ev('s', '2026-12-02T09:00', 60, { recurrence_id: '2026-12-02T08:00:00Z' });
    expect(conflicting([s1, other, s2]).size).toBe(2);
  });

  it('puts each event on its day in the zone, all-day events first, and frees no time for them', () => {
    const days = planDays(
      ['2026-12-01', '2026-12-02'],
      [
        ev('late', '2026-12-01T23:30', 60),
        ev('hol', '2026-12-02T00:00', 1440, { all_day: true, scheduled_for: '2026-12-02' }),
        ev('m', '2026-12-02T08:00', 60),
      ],
      new Map([
        [
          '2026-12-02',
          {
            date: '2026-12-02',
            slots: [{ start: new Date(at('2026-12-02', '09:00')).toISOString(), end: new Date(at('2026-12-02', '22:00')).toISOString() }],
            blocked: [{ start: new Date(at('2026-12-02', '12:00')).toISOString(), end: new Date(at('2026-12-02', '13:00')).toISOString(), label: 'lunch' }],
          },
        ],
      ]),
      Z,
    );
    expect(days[0]!.events.map((e) => e.event.uid)).toEqual(['late']);
    expect(days[0]!.free).toEqual([]);
    expect(days[1]!.events.map((e) => e.event.uid)).toEqual(['hol', 'm']);
    // Free and blocked time are the daemon's answer, laid on the day as instants.
    expect(days[1]!.free[0]).toEqual({ start: at('2026-12-02', '09:00'), end: at('2026-12-02', '22:00') });
    expect(days[1]!.blocked).toEqual([{ start: at('2026-12-02', '12:00'), end: at('2026-12-02', '13:00'), label: 'lunch' }]);
  });
});
