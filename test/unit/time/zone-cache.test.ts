import { describe, expect, it } from 'vitest';
import { instantOf, offsetAt, wallAt } from '../../../src/time/zone-cache.js';

const at = (s: string) => Date.parse(s);

describe('wall time ↔ instant', () => {
  it('reads Berlin and New York offsets across their DST changes', () => {
    expect(offsetAt(at('2031-03-29T12:00:00Z'), 'Europe/Berlin')).toBe(3_600_000);
    expect(offsetAt(at('2031-03-31T12:00:00Z'), 'Europe/Berlin')).toBe(7_200_000);
    expect(offsetAt(at('2031-03-08T12:00:00Z'), 'America/New_York')).toBe(-5 * 3_600_000);
    expect(offsetAt(at('2031-03-10T12:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000);
  });

  it('moves a wall time in the spring gap forward, and takes the first of a repeated autumn hour (RFC 5545)', () => {
    // 2031-03-30 02:30 does not exist in Berlin: it is read with the offset before the gap (+01:00).
    expect(new Date(instantOf({ year: 2031, month: 3, day: 30, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin')).toISOString()).toBe(
      '2031-03-30T01:30:00.000Z',
    );
    // 2031-10-26 02:30 happens twice: the first (still +02:00).
    expect(new Date(instantOf({ year: 2031, month: 10, day: 26, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin')).toISOString()).toBe(
      '2031-10-26T00:30:00.000Z',
    );
    // New York: 2031-03-09 02:30 is skipped, 2031-11-02 01:30 repeats.
    expect(new Date(instantOf({ year: 2031, month: 3, day: 9, hour: 2, minute: 30, second: 0 }, 'America/New_York')).toISOString()).toBe(
      '2031-03-09T07:30:00.000Z',
    );
    expect(new Date(instantOf({ year: 2031, month: 11, day: 2, hour: 1, minute: 30, second: 0 }, 'America/New_York')).toISOString()).toBe(
      '2031-11-02T05:30:00.000Z',
    );
  });

  it('round-trips ordinary times in many zones', () => {
    for (const tz of ['UTC', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham']) {
      for (const iso of ['2031-01-15T10:20:00Z', '2031-07-15T23:59:00Z']) {
        expect(instantOf(wallAt(at(iso), tz), tz)).toBe(at(iso));
      }
    }
  });
});
