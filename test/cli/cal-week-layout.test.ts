import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { gridJson, placeOnDays } from '../../src/cli/commands/cal/views/grid-days.js';
import type { GridContext } from '../../src/cli/commands/cal/views/grid-input.js';
import { monthGrid } from '../../src/cli/commands/cal/views/month-grid.js';
import { weekGrid } from '../../src/cli/commands/cal/views/week-grid.js';
import type { EventView } from '../../src/cli/output/calendar-format.js';
import { columns, fitCell, padCell, wrapCell } from '../../src/cli/output/cell-text.js';

// The layout of `cal week` / `cal month` without a daemon: placing occurrences on local days and
// fitting text into cells measured in terminal columns.
const plain = new Chalk({ level: 0 });
const ev = (over: Partial<EventView>): EventView => ({
  uid: 'ev_1',
  title: 'Event',
  scheduled_for: '2026-10-19T07:00:00.000Z',
  duration_minutes: 60,
  all_day: false,
  timezone: 'Europe/Berlin',
  tag: null,
  status: 'confirmed',
  ...over,
});
const ctx = (width: number): GridContext => ({ zone: 'Europe/Berlin', weekStart: 'monday', today: { year: 2026, month: 10, day: 21 }, width });

describe('cell text', () => {
  it('counts wide characters as two columns and cuts with an ellipsis', () => {
    expect(columns('会議')).toBe(4);
    expect(columns('Café')).toBe(4);
    expect(columns('Cafe\u0301')).toBe(4);
    expect(fitCell('日本語のタイトル', 9)).toBe('日本語の…');
    expect(columns(padCell('日本語のタイトル', 9))).toBe(9);
    expect(fitCell('Standup', 9)).toBe('Standup');
    expect(fitCell('Quarterly planning', 9)).toBe('Quarterl…');
    expect(wrapCell('Night train to Vienna', 9, 3)).toEqual(['Night', 'train to', 'Vienna']);
    expect(wrapCell('Night train to Vienna and back', 9, 2)).toEqual(['Night', 'train to…']);
    expect(wrapCell('Supercalifragilistic', 9, 2)).toEqual(['Supercali', 'fragilis…']);
  });
});

describe('placing occurrences on days', () => {
  it('reads wall times in the user zone across a DST change, and splits events over midnight', () => {
    const days = placeOnDays(
      [
        // 09:00 Berlin on the Saturday (summer time, 07:00Z) and the Monday after (winter time, 08:00Z).
        ev({ uid: 'a', title: 'Sat', scheduled_for: '2026-10-24T07:00:00.000Z' }),
        ev({ uid: 'b', title: 'Mon', scheduled_for: '2026-10-26T08:00:00.000Z' }),
        // Sunday 23:00 to Monday 00:00: ends at midnight, so on Sunday only.
        ev({ uid: 'c', title: 'Late', scheduled_for: '2026-10-25T22:00:00.000Z', duration_minutes: 60 }),
        // All-day in Tokyo on the 26th: the 26th, whatever the user's zone.
        ev({ uid: 'd', title: 'Tokyo holiday', all_day: true, timezone: 'Asia/Tokyo', scheduled_for: '2026-10-25T15:00:00.000Z', duration_minutes: 1440 }),
        ev({ uid: 'e', title: 'Gone', status: 'cancelled', scheduled_for: '2026-10-26T10:00:00.000Z' }),
      ],
      'Europe/Berlin',
      { year: 2026, month: 10, day: 24 },
      3,
    );
    expect(gridJson(days).map((d) => [d.date, d.events.map((e) => `${e.part} ${e.from ?? ''}-${e.to ?? ''} ${e.event.title}`)])).toEqual([
      ['2026-10-24', ['timed 09:00-10:00 Sat']],
      ['2026-10-25', ['timed 23:00-24:00 Late']],
      ['2026-10-26', ['all-day - Tokyo holiday', 'timed 09:00-10:00 Mon']],
    ]);
  });
});

describe('grids at any width', () => {
  const days = placeOnDays(
    [
      ev({ title: 'A title far too long for any cell of the grid, even a wide one', duration_minutes: 180 }),
      ev({ title: '会議の準備', scheduled_for: '2026-10-20T10:00:00.000Z' }),
    ],
    'Europe/Berlin',
    { year: 2026, month: 10, day: 19 },
    7,
  );
  it.each([60, 80, 100, 120, 200])('a week fills %i columns and no more', (width) => {
    const lines = weekGrid(days, ctx(width), plain).split('\n');
    expect(Math.max(...lines.map(columns))).toBeLessThanOrEqual(width);
    expect(Math.max(...lines.map(columns))).toBeGreaterThan(width - 8);
  });
  const october = placeOnDays([ev({ title: '会議の準備', scheduled_for: '2026-10-20T10:00:00.000Z' })], 'Europe/Berlin', { year: 2026, month: 10, day: 1 }, 31);
  it.each([60, 80, 100, 120, 200])('a month fills %i columns and no more', (width) => {
    const lines = monthGrid(october, ctx(width), plain).split('\n');
    expect(Math.max(...lines.map(columns))).toBeLessThanOrEqual(width);
    expect(Math.max(...lines.map(columns))).toBeGreaterThan(width - 8);
  });
});

describe('more than fits', () => {
  it('the all-day band of a week shows two events and "+N more" for the rest', () => {
    const many = ['One', 'Two', 'Three', 'Four', 'Five'].map((title, i) =>
      ev({ uid: `ev_${i}`, title, all_day: true, scheduled_for: '2026-10-19T22:00:00.000Z', duration_minutes: 1440 }),
    );
    const text = weekGrid(placeOnDays(many, 'Europe/Berlin', { year: 2026, month: 10, day: 19 }, 7), ctx(80), plain);
    const band = text
      .split('\n')
      .filter((l) => l.includes('│'))
      .map((l) => l.split('│')[2]!.trim());
    expect(band.slice(1, 4)).toEqual(['Five', 'Four', '+3 more']);
  });
});
