import { describe, expect, it } from 'vitest';
import { addDays, fromInput, instantOf, toInput, wall, weekOf } from '../../web/src/time.js';

describe('wall time in the profile zone', () => {
  it('shows an instant on the zone’s clock, not the browser’s', () => {
    expect(wall('2026-03-10T14:00:00Z', 'Europe/Berlin')).toEqual({ date: '2026-03-10', time: '15:00' });
    expect(wall('2026-03-10T02:00:00Z', 'America/New_York')).toEqual({ date: '2026-03-09', time: '22:00' });
  });

  it('finds the instant of a wall time on both sides of a DST change', () => {
    expect(new Date(instantOf('2026-03-28', '09:00', 'Europe/Berlin')).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(new Date(instantOf('2026-03-30', '09:00', 'Europe/Berlin')).toISOString()).toBe('2026-03-30T07:00:00.000Z');
    expect(new Date(instantOf('2026-11-01', '00:30', 'Pacific/Chatham')).toISOString()).toBe('2026-10-31T10:45:00.000Z');
  });

  it('round-trips a datetime-local value through the zone', () => {
    const iso = fromInput('2026-07-01T07:00', 'Asia/Kolkata');
    expect(iso).toBe('2026-07-01T01:30:00.000Z');
    expect(toInput(iso, 'Asia/Kolkata')).toBe('2026-07-01T07:00');
  });

  it('builds the Monday-to-Sunday week of a date, across a month end', () => {
    expect(weekOf('2026-12-02')).toEqual(['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weekOf('2026-11-29')[0]).toBe('2026-11-23');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
