import { describe, expect, it } from 'vitest';
import type { Blocked } from '../../../../src/contracts/tempo.js';
import { type FreeSlotQuery, findFreeSlots } from '../../../../src/domain/tempo/free-slots.js';
import { defaultSettings } from '../../../../src/domain/tempo/profile.js';
import { addDays, type LocalDate, weekdayOf } from '../../../../src/time/local-date.js';
import { atLocalTime, formatInZone } from '../../../../src/time/zoned-time.js';

const BERLIN = 'Europe/Berlin';

/** What the calendar hands over for a recurring event: its occurrences, expanded in the event's zone. */
function occurrences(first: LocalDate, days: number, hhmm: [number, number], minutes: number, zone: string, weekdaysOnly = true) {
  const out: { start: Date; end: Date }[] = [];
  for (let i = 0; i < days; i++) {
    const d = addDays(first, i);
    if (weekdaysOnly && (weekdayOf(d) === 'sat' || weekdayOf(d) === 'sun')) continue;
    const start = atLocalTime(d, hhmm[0] * 60 + hhmm[1], zone);
    out.push({ start, end: new Date(start.getTime() + minutes * 60_000) });
  }
  return out;
}

const profile = (blocked: Blocked[] = []) => ({ ...defaultSettings(), blocked });
const local = (slots: { start: string; end: string }[], zone = BERLIN) =>
  slots.map((s) => `${formatInZone(new Date(s.start), zone)} → ${formatInZone(new Date(s.end), zone).slice(11, 16)}`);
const find = (q: Partial<FreeSlotQuery> & Pick<FreeSlotQuery, 'from' | 'duration_minutes'>) => findFreeSlots({ profile: profile(), timezone: BERLIN, ...q });

describe('free-slot search around a recurring event', () => {
  // A daily stand-up, Monday to Friday 09:00–09:30 Berlin time, for three weeks from Monday 2025-03-17.
  const standup = occurrences({ year: 2025, month: 3, day: 17 }, 21, [9, 0], 30, BERLIN);
  const monday8 = new Date('2025-03-17T07:00:00Z'); // 08:00 CET

  it('places a slot that fits before the stand-up right before it', () => {
    expect(local(find({ from: monday8, duration_minutes: 60, tag: '@morning', busy: standup }))).toEqual(['2025-03-17T08:00:00+01:00 → 09:00']);
  });

  it('moves a slot that would overlap it to the end of it', () => {
    expect(local(find({ from: monday8, duration_minutes: 90, tag: '@morning', busy: standup }))).toEqual(['2025-03-17T09:30:00+01:00 → 11:00']);
  });

  it('gives back-to-back earliest slots when asked for several', () => {
    expect(local(find({ from: monday8, duration_minutes: 60, tag: '@morning', busy: standup, count: 4 }))).toEqual([
      '2025-03-17T08:00:00+01:00 → 09:00',
      '2025-03-17T09:30:00+01:00 → 10:30',
      '2025-03-17T10:30:00+01:00 → 11:30',
      '2025-03-18T06:00:00+01:00 → 07:00',
    ]);
  });

  it('keeps the stand-up at 09:00 local after the clocks change', () => {
    // From Monday 2025-03-31 (CEST) a 3-hour morning block only fits after 09:30 local.
    const r = find({ from: new Date('2025-03-31T05:00:00Z'), duration_minutes: 150, tag: '@morning', busy: standup });
    expect(local(r)).toEqual(['2025-03-31T09:30:00+02:00 → 12:00']);
    expect(r[0]!.start).toBe('2025-03-31T07:30:00.000Z');
  });

  it('avoids blocked time and busy time together inside @work', () => {
    const lunch: Blocked = { start: '12:00', end: '13:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], label: 'lunch' };
    const r = findFreeSlots({ profile: profile([lunch]), timezone: BERLIN, from: monday8, duration_minutes: 210, tag: '@work', busy: standup });
    // 09:30–12:00 is too short, so the afternoon: 13:00–16:30.
    expect(local(r)).toEqual(['2025-03-17T13:00:00+01:00 → 16:30']);
  });

  it('skips days whose range is taken and days the range does not cover', () => {
    // Friday 2025-03-21 afternoon onwards: @work has no weekend, so the next slot is Monday.
    const r = find({ from: new Date('2025-03-21T15:00:00Z'), duration_minutes: 120, tag: '@work', busy: standup });
    expect(local(r)).toEqual(['2025-03-24T09:30:00+01:00 → 11:30']);
  });
});

describe('free-slot search and DST', () => {
  it('finds @morning at 06:00 local on the days the clocks change', () => {
    expect(find({ from: new Date('2025-03-29T12:00:00Z'), duration_minutes: 60, tag: '@morning' })[0]!.start).toBe('2025-03-30T04:00:00.000Z');
    expect(find({ from: new Date('2025-10-25T12:00:00Z'), duration_minutes: 60, tag: '@morning' })[0]!.start).toBe('2025-10-26T05:00:00.000Z');
  });

  it('knows the spring-forward night is an hour short and the fall-back night an hour long', () => {
    const saturdayNoon = new Date('2025-03-29T12:00:00Z');
    // 22:00 CET to 06:00 CEST is seven real hours.
    expect(find({ from: saturdayNoon, duration_minutes: 420, tag: '@night', until: new Date('2025-03-30T12:00:00Z') })).toEqual([
      { start: '2025-03-29T21:00:00.000Z', end: '2025-03-30T04:00:00.000Z' },
    ]);
    expect(find({ from: saturdayNoon, duration_minutes: 450, tag: '@night', until: new Date('2025-03-30T12:00:00Z') })).toEqual([]);
    expect(find({ from: new Date('2025-10-25T12:00:00Z'), duration_minutes: 540, tag: '@night', until: new Date('2025-10-26T12:00:00Z') })).toEqual([
      { start: '2025-10-25T20:00:00.000Z', end: '2025-10-26T05:00:00.000Z' },
    ]);
  });

  it('keeps a weekly blocked range at its wall time across the change', () => {
    const early: Blocked = { start: '06:00', end: '07:00' };
    const r = findFreeSlots({ profile: profile([early]), timezone: BERLIN, from: new Date('2025-03-29T12:00:00Z'), duration_minutes: 60, tag: '@morning' });
    expect(local(r)).toEqual(['2025-03-30T07:00:00+02:00 → 08:00']);
  });
});

describe('free-slot search options', () => {
  it('aligns starts to the local quarter hour by default, or to another step', () => {
    const from = new Date('2025-03-17T07:07:00Z');
    expect(local(find({ from, duration_minutes: 30, tag: '@morning' }))).toEqual(['2025-03-17T08:15:00+01:00 → 08:45']);
    expect(local(find({ from, duration_minutes: 30, tag: '@morning', step_minutes: 60 }))).toEqual(['2025-03-17T09:00:00+01:00 → 09:30']);
    // Kathmandu is UTC+05:45: an hourly step means local full hours, not UTC ones.
    const ktm = findFreeSlots({
      profile: profile(),
      timezone: 'Asia/Kathmandu',
      from: new Date('2025-03-17T02:00:00Z'),
      duration_minutes: 30,
      tag: '@morning',
      step_minutes: 60,
    });
    expect(local(ktm, 'Asia/Kathmandu')).toEqual(['2025-03-17T08:00:00+05:45 → 08:30']);
  });

  it('searches waking hours for a tag without a range, and explicit ranges when given', () => {
    const lateNight = new Date('2025-03-17T22:30:00Z'); // 23:30 CET
    expect(local(find({ from: lateNight, duration_minutes: 60, tag: '@deep-work' }))).toEqual(['2025-03-18T06:00:00+01:00 → 07:00']);
    expect(local(find({ from: lateNight, duration_minutes: 60 }))).toEqual(['2025-03-18T06:00:00+01:00 → 07:00']);
    expect(local(find({ from: lateNight, duration_minutes: 60, ranges: [{ start: '14:00', end: '15:00', days: ['wed'] }] }))).toEqual([
      '2025-03-19T14:00:00+01:00 → 15:00',
    ]);
  });

  it('avoids one-off blocks and gives nothing when the horizon is full', () => {
    const trip: Blocked = { start: '2025-03-17T00:00:00.000Z', end: '2025-03-19T00:00:00.000Z' };
    const r = findFreeSlots({ profile: profile([trip]), timezone: BERLIN, from: new Date('2025-03-17T07:00:00Z'), duration_minutes: 60, tag: '@morning' });
    expect(local(r)).toEqual(['2025-03-19T06:00:00+01:00 → 07:00']);
    expect(
      findFreeSlots({ profile: profile([trip]), timezone: BERLIN, from: new Date('2025-03-17T07:00:00Z'), duration_minutes: 60, horizon_days: 1 }),
    ).toEqual([]);
  });

  it('refuses nonsense', () => {
    expect(() => find({ from: new Date(), duration_minutes: 0 })).toThrow(RangeError);
    expect(() => find({ from: new Date(), duration_minutes: 30, step_minutes: 0 })).toThrow(RangeError);
  });
});
