import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isoWeekKey, isoWeekOf, parseHHMM, parseLocalDate, startOfIsoWeek, weekdayOf } from '../../../src/time/local-date.js';

describe('local dates', () => {
  it('does calendar arithmetic without zones', () => {
    expect(addDays({ year: 2024, month: 12, day: 31 }, 1)).toEqual({ year: 2025, month: 1, day: 1 });
    expect(addDays({ year: 2024, month: 3, day: 1 }, -1)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(daysBetween({ year: 2025, month: 3, day: 29 }, { year: 2025, month: 3, day: 31 })).toBe(2);
    expect(weekdayOf({ year: 2025, month: 3, day: 10 })).toBe('mon');
    expect(weekdayOf({ year: 2025, month: 3, day: 30 })).toBe('sun');
  });

  it('parses only real dates', () => {
    expect(parseLocalDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseLocalDate('2025-02-29')).toBeUndefined();
    expect(parseLocalDate('2025-2-1')).toBeUndefined();
  });

  it('numbers ISO weeks like ISO 8601', () => {
    expect(isoWeekOf({ year: 2021, month: 1, day: 3 })).toEqual({ year: 2020, week: 53 });
    expect(isoWeekOf({ year: 2024, month: 12, day: 30 })).toEqual({ year: 2025, week: 1 });
    expect(isoWeekOf({ year: 2026, month: 12, day: 31 })).toEqual({ year: 2026, week: 53 });
    expect(isoWeekKey({ year: 2025, month: 3, day: 30 })).toBe('2025-W13');
    expect(startOfIsoWeek({ year: 2025, month: 3, day: 30 })).toEqual({ year: 2025, month: 3, day: 24 });
  });
});

describe('wall times of day', () => {
  it('parses HH:MM strictly', () => {
    expect(parseHHMM('06:00')).toBe(360);
    expect(parseHHMM('6:05')).toBe(365);
    expect(parseHHMM('23:59')).toBe(1439);
    for (const bad of ['24:00', '12:60', '1200', '12:5', 'noon']) expect(parseHHMM(bad)).toBeUndefined();
  });
});
