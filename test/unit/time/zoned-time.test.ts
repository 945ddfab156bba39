import { describe, expect, it } from 'vitest';
import {
  atLocalTime,
  dayPeriod,
  formatInZone,
  fromZoned,
  isoWeekPeriod,
  isTimeZone,
  localDateOf,
  offsetMinutes,
  startOfLocalDay,
  toZoned,
} from '../../../src/time/zoned-time.js';

const iso = (d: Date) => d.toISOString();
const HOUR = 3_600_000;

describe('toZoned / offsetMinutes', () => {
  it.each([
    ['2025-01-15T12:00:00Z', 'Europe/Berlin', 60],
    ['2025-07-15T12:00:00Z', 'Europe/Berlin', 120],
    ['2025-01-15T12:00:00Z', 'America/New_York', -300],
    ['2025-07-15T12:00:00Z', 'America/New_York', -240],
    ['2025-07-15T12:00:00Z', 'Asia/Kathmandu', 345],
    ['2025-07-15T12:00:00Z', 'Asia/Kolkata', 330],
    ['2025-01-15T12:00:00Z', 'Australia/Lord_Howe', 660],
    ['2025-07-15T12:00:00Z', 'Australia/Lord_Howe', 630],
    ['2025-07-15T12:00:00Z', 'UTC', 0],
  ])('%s in %s is UTC%+d min', (at, zone, off) => {
    expect(offsetMinutes(new Date(at), zone)).toBe(off);
  });

  it('reads the wall clock across the spring-forward instant in Berlin', () => {
    expect(toZoned(new Date('2025-03-30T00:59:59Z'), 'Europe/Berlin')).toMatchObject({ day: 30, hour: 1, minute: 59, second: 59, weekday: 'sun' });
    expect(toZoned(new Date('2025-03-30T01:00:00Z'), 'Europe/Berlin')).toMatchObject({ day: 30, hour: 3, minute: 0, second: 0 });
  });

  it('prints midnight as 00, not 24', () => {
    expect(toZoned(new Date('2025-05-01T22:00:00Z'), 'Europe/Berlin')).toMatchObject({ month: 5, day: 2, hour: 0, minute: 0 });
  });

  it('knows real zones from made-up ones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('fromZoned', () => {
  it('converts ordinary wall times', () => {
    expect(iso(fromZoned({ year: 2025, month: 7, day: 1, hour: 9, minute: 0 }, 'Europe/Berlin'))).toBe('2025-07-01T07:00:00.000Z');
    expect(iso(fromZoned({ year: 2025, month: 1, day: 1, hour: 9, minute: 0 }, 'America/New_York'))).toBe('2025-01-01T14:00:00.000Z');
    expect(iso(fromZoned({ year: 2025, month: 1, day: 1, hour: 9, minute: 15 }, 'Asia/Kathmandu'))).toBe('2025-01-01T03:30:00.000Z');
  });

  it('moves a wall time skipped by spring-forward past the gap (compatible), or before it (earlier)', () => {
    const skipped = { year: 2025, month: 3, day: 30, hour: 2, minute: 30 };
    expect(iso(fromZoned(skipped, 'Europe/Berlin'))).toBe('2025-03-30T01:30:00.000Z'); // 03:30 CEST
    expect(iso(fromZoned(skipped, 'Europe/Berlin', 'later'))).toBe('2025-03-30T01:30:00.000Z');
    expect(iso(fromZoned(skipped, 'Europe/Berlin', 'earlier'))).toBe('2025-03-30T00:30:00.000Z'); // 01:30 CET
    expect(() => fromZoned(skipped, 'Europe/Berlin', 'reject')).toThrow(/does not exist/);
    expect(iso(fromZoned({ year: 2025, month: 3, day: 9, hour: 2, minute: 30 }, 'America/New_York'))).toBe('2025-03-09T07:30:00.000Z'); // 03:30 EDT
  });

  it('takes the first of a wall time repeated by fall-back unless told otherwise', () => {
    const twice = { year: 2025, month: 10, day: 26, hour: 2, minute: 30 };
    expect(iso(fromZoned(twice, 'Europe/Berlin'))).toBe('2025-10-26T00:30:00.000Z'); // CEST
    expect(iso(fromZoned(twice, 'Europe/Berlin', 'later'))).toBe('2025-10-26T01:30:00.000Z'); // CET
    expect(() => fromZoned(twice, 'Europe/Berlin', 'reject')).toThrow(/twice/);
    const ny = { year: 2025, month: 11, day: 2, hour: 1, minute: 30 };
    expect(iso(fromZoned(ny, 'America/New_York'))).toBe('2025-11-02T05:30:00.000Z');
    expect(iso(fromZoned(ny, 'America/New_York', 'later'))).toBe('2025-11-02T06:30:00.000Z');
  });

  it('round-trips every 131 minutes of 2025 in zones with and without DST', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo']) {
      for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2026, 0, 1); t += 131 * 60_000) {
        const z = toZoned(t, zone);
        const back = fromZoned(z, zone);
        // In a repeated hour the wall time is the same but the compatible reading is the earlier one.
        if (back.getTime() !== t) {
          expect(toZoned(back, zone)).toEqual(z);
          expect(fromZoned(z, zone, 'later').getTime()).toBe(t);
        }
      }
    }
  });
});

describe('local dates', () => {
  it('reads the local date of an instant in the zone, not in UTC', () => {
    expect(localDateOf(new Date('2025-03-09T23:30:00Z'), 'Europe/Berlin')).toEqual({ year: 2025, month: 3, day: 10 });
    expect(localDateOf(new Date('2025-03-10T03:30:00Z'), 'America/New_York')).toEqual({ year: 2025, month: 3, day: 9 });
  });
});

describe('wall times and periods', () => {
  it('has 23- and 25-hour days at the DST changes', () => {
    const spring = dayPeriod(new Date('2025-03-30T12:00:00Z'), 'Europe/Berlin');
    expect(spring.key).toBe('2025-03-30');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * HOUR);
    const fall = dayPeriod(new Date('2025-10-26T12:00:00Z'), 'Europe/Berlin');
    expect(fall.end.getTime() - fall.start.getTime()).toBe(25 * HOUR);
    expect(iso(fall.start)).toBe('2025-10-25T22:00:00.000Z');
  });

  it('has a 167-hour ISO week around spring-forward, local Monday to Monday', () => {
    const w = isoWeekPeriod(new Date('2025-03-30T21:59:00Z'), 'Europe/Berlin'); // Sunday 23:59 CEST
    expect(w.key).toBe('2025-W13');
    expect(iso(w.start)).toBe('2025-03-23T23:00:00.000Z');
    expect(iso(w.end)).toBe('2025-03-30T22:00:00.000Z');
    expect(w.end.getTime() - w.start.getTime()).toBe(167 * HOUR);
    expect(isoWeekPeriod(new Date('2025-03-30T22:00:00Z'), 'Europe/Berlin').key).toBe('2025-W14');
  });

  it('starts a day at its first instant even when the zone skips midnight', () => {
    // Brazil started DST at midnight in 2018: 2018-11-04 began at 01:00.
    expect(formatInZone(startOfLocalDay({ year: 2018, month: 11, day: 4 }, 'America/Sao_Paulo'), 'America/Sao_Paulo')).toBe('2018-11-04T01:00:00-02:00');
  });

  it('formats instants with the offset in force', () => {
    expect(formatInZone(new Date('2025-03-30T01:30:00Z'), 'Europe/Berlin')).toBe('2025-03-30T03:30:00+02:00');
    expect(formatInZone(new Date('2025-01-01T00:00:00Z'), 'America/St_Johns')).toBe('2024-12-31T20:30:00-03:30');
    expect(iso(atLocalTime({ year: 2025, month: 7, day: 4 }, 9 * 60, 'America/New_York'))).toBe('2025-07-04T13:00:00.000Z');
  });
});
