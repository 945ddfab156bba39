import { describe, expect, it } from 'vitest';
import { AdjustRequest, PreferencesInput } from '../../../../src/contracts/tempo.js';
import { applyDurationBias, defaultSettings, mappedTag, mergeSettings, tagsOfSettings } from '../../../../src/domain/tempo/profile.js';
import { AppError } from '../../../../src/errors.js';
import { parseOr422 } from '../../../../src/server/validate.js';

const prefs = (p: unknown) => parseOr422(PreferencesInput, p, 'body');

function rejects(p: unknown): AppError {
  try {
    parseOr422(AdjustRequest, { preferences: p }, 'body');
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(p)}`);
}

describe('preferences validation', () => {
  it('normalizes tags, wall times and days', () => {
    expect(prefs({ time_ranges: { '@Gym': { start: '6:00', end: '7:30', days: ['Friday', 'mon', 'MON'] } } })).toEqual({
      time_ranges: { '@gym': { start: '06:00', end: '07:30', days: ['mon', 'fri'] } },
    });
    expect(prefs({ tag_mappings: { ' Gym  Class ': '@Morning', focus: '90M' } })).toEqual({ tag_mappings: { 'gym class': '@morning', focus: '90m' } });
    expect(prefs({ duration_biases: { Meeting: 1.25, '@deep-work': { minutes: 15 } } })).toEqual({
      duration_biases: { meeting: 1.25, '@deep-work': { minutes: 15 } },
    });
  });

  it('reads weekly blocks from HH:MM and one-off blocks from ISO date-times (stored in UTC)', () => {
    expect(
      prefs({
        blocked: [
          { start: '12:00', end: '13:00', days: ['mon', 'tue'], label: ' lunch ' },
          { start: '2031-06-02T14:00:00+02:00', end: '2031-06-02T13:00:00Z' },
        ],
      }),
    ).toEqual({
      blocked: [
        { start: '12:00', end: '13:00', days: ['mon', 'tue'], label: 'lunch' },
        { start: '2031-06-02T12:00:00.000Z', end: '2031-06-02T13:00:00.000Z' },
      ],
    });
  });

  it.each([
    [
      'a label that breaks the grammar',
      { time_ranges: { 'Morning!!': { start: '06:00', end: '12:00' } } },
      'invalid_tempo_tag',
      'preferences.time_ranges.Morning!!',
    ],
    ['a mapping to a non-tag', { tag_mappings: { gym: 'mornings' } }, 'invalid_tempo_tag', 'preferences.tag_mappings.gym'],
    ['a bias on a malformed tag', { duration_biases: { '@deep_work': 1.5 } }, 'invalid_tempo_tag', 'preferences.duration_biases.@deep_work'],
    ['a duration block as a range', { time_ranges: { '90m': { start: '06:00', end: '12:00' } } }, 'validation_failed', 'preferences.time_ranges.90m'],
    ['an hour 24', { time_ranges: { '@late': { start: '22:00', end: '24:00' } } }, 'validation_failed', 'preferences.time_ranges.@late.end'],
    ['a wall time without colon', { time_ranges: { '@late': { start: '2200', end: '23:00' } } }, 'validation_failed', 'preferences.time_ranges.@late.start'],
    ['no days at all', { time_ranges: { '@late': { start: '22:00', end: '23:00', days: [] } } }, 'validation_failed', 'preferences.time_ranges.@late.days'],
    [
      'a made-up day',
      { time_ranges: { '@late': { start: '22:00', end: '23:00', days: ['funday'] } } },
      'validation_failed',
      'preferences.time_ranges.@late.days.0',
    ],
    ['an unknown range field', { time_ranges: { '@late': { start: '22:00', end: '23:00', tz: 'UTC' } } }, 'validation_failed', 'preferences.time_ranges.@late'],
    [
      'the same tag twice',
      { time_ranges: { '@late': { start: '22:00', end: '23:00' }, '@LATE': { start: '21:00', end: '23:00' } } },
      'validation_failed',
      'preferences.time_ranges.@LATE',
    ],
    ['a zero multiplier', { duration_biases: { meeting: 0 } }, 'validation_failed', 'preferences.duration_biases.meeting'],
    ['fractional minutes', { duration_biases: { meeting: { minutes: 7.5 } } }, 'validation_failed', 'preferences.duration_biases.meeting'],
    [
      'a one-off block that ends before it starts',
      { blocked: [{ start: '2031-06-02T13:00:00Z', end: '2031-06-02T12:00:00Z' }] },
      'validation_failed',
      'preferences.blocked.0.end',
    ],
    ['a block mixing HH:MM and a date-time', { blocked: [{ start: '12:00', end: '2031-06-02T12:00:00Z' }] }, 'validation_failed', 'preferences.blocked.0.end'],
    ['a block in words', { blocked: [{ start: 'noon', end: '13:00' }] }, 'validation_failed', 'preferences.blocked.0.start'],
    [
      'a one-off block with days',
      { blocked: [{ start: '2031-06-02T12:00:00Z', end: '2031-06-02T13:00:00Z', days: ['mon'] }] },
      'validation_failed',
      'preferences.blocked.0.days',
    ],
    [
      'a date-time without offset',
      { blocked: [{ start: '2031-06-02T12:00:00', end: '2031-06-02T13:00:00' }] },
      'validation_failed',
      'preferences.blocked.0.start',
    ],
    ['cadence of an unknown kind', { cadence: { email: { max: 1, per: 'day' } } }, 'validation_failed', 'preferences.cadence'],
    ['cadence per month', { cadence: { reflect: { max: 1, per: 'month' } } }, 'validation_failed', 'preferences.cadence.reflect.per'],
    ['a negative cadence', { cadence: { reflect: { max: -1, per: 'day' } } }, 'validation_failed', 'preferences.cadence.reflect.max'],
    ['per_event on reflect', { cadence: { reflect: { max: 1, per: 'day', per_event: true } } }, 'validation_failed', 'preferences.cadence.reflect.per_event'],
    ['a fractional budget', { budget: { per_day: 2.5 } }, 'validation_failed', 'preferences.budget.per_day'],
    ['a budget field that does not exist', { budget: { per_month: 3 } }, 'validation_failed', 'preferences.budget'],
    [
      'a negative agent budget',
      { budget: { per_agent: { 'agent-a': { per_week: -2 } } } },
      'validation_failed',
      'preferences.budget.per_agent.agent-a.per_week',
    ],
    ['an unknown preference', { colour: 'blue' }, 'validation_failed', 'preferences'],
    ['the time zone', { timezone: 'Europe/Berlin' }, 'validation_failed', 'preferences.timezone'],
  ])('rejects %s', (_name, p, code, path) => {
    const e = rejects(p);
    expect(e.status).toBe(422);
    expect(e.code).toBe(code);
    expect(e.details?.map((d) => d.path)).toContain(path);
  });

  it('points at PATCH /user/update for the time zone', () => {
    expect(rejects({ timezone: 'UTC' }).message).toMatch(/\/user\/update/);
  });

  it('reports a bad tag key and its bad value together, as invalid_tempo_tag', () => {
    const e = rejects({ time_ranges: { 'Bad!': { start: '1', end: '12:00' } } });
    expect(e.code).toBe('invalid_tempo_tag');
    expect(e.details?.map((d) => d.path)).toEqual(['preferences.time_ranges.Bad!', 'preferences.time_ranges.Bad!.start']);
  });

  it('reports every problem at once', () => {
    const e = rejects({ time_ranges: { '@a': { start: 'x', end: 'y' } }, budget: { per_day: -1 } });
    expect(e.details?.map((d) => d.path).sort()).toEqual(['preferences.budget.per_day', 'preferences.time_ranges.@a.end', 'preferences.time_ranges.@a.start']);
  });
});

describe('merging an adjustment', () => {
  const merged = (...patches: unknown[]) => patches.reduce((s: ReturnType<typeof defaultSettings>, p) => mergeSettings(s, prefs(p)), defaultSettings());

  it('starts from the documented defaults', () => {
    const d = defaultSettings();
    expect(d.time_ranges).toEqual({
      '@morning': { start: '06:00', end: '12:00' },
      '@afternoon': { start: '12:00', end: '17:00' },
      '@evening': { start: '17:00', end: '22:00' },
      '@night': { start: '22:00', end: '06:00' },
      '@work': { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    });
    expect(d).toMatchObject({ tag_mappings: {}, duration_biases: {}, blocked: [], cadence: {}, budget: {} });
  });

  it('changes only the keys it names, and null removes one', () => {
    const s = merged({
      time_ranges: { '@morning': { start: '07:00', end: '11:00' }, '@night': null, '@deep-work': { start: '09:00', end: '10:30', days: ['tue'] } },
    });
    expect(s.time_ranges['@morning']).toEqual({ start: '07:00', end: '11:00' });
    expect(s.time_ranges['@night']).toBeUndefined();
    expect(s.time_ranges['@afternoon']).toEqual({ start: '12:00', end: '17:00' });
    expect(s.time_ranges['@deep-work']).toEqual({ start: '09:00', end: '10:30', days: ['tue'] });
  });

  it('merges mappings, biases and cadence key by key across adjustments', () => {
    const s = merged(
      { tag_mappings: { gym: '@morning' }, duration_biases: { meeting: 1.25 }, cadence: { reflect: { max: 1, per: 'day' } } },
      {
        tag_mappings: { taxes: '@afternoon' },
        duration_biases: { meeting: null, call: { minutes: 10 } },
        cadence: { reschedule_event: { max: 2, per: 'week', per_event: true } },
      },
      { cadence: { reflect: null } },
    );
    expect(s.tag_mappings).toEqual({ gym: '@morning', taxes: '@afternoon' });
    expect(s.duration_biases).toEqual({ call: { minutes: 10 } });
    expect(s.cadence).toEqual({ reschedule_event: { max: 2, per: 'week', per_event: true } });
  });

  it('merges budget limits and per-agent limits, null removing', () => {
    const s = merged(
      { budget: { per_day: 10, per_week: 40, per_agent: { a: { per_day: 3 }, b: { per_week: 5 } } } },
      { budget: { per_day: null, per_agent: { a: { per_week: 12 }, b: null } } },
    );
    expect(s.budget).toEqual({ per_week: 40, per_agent: { a: { per_day: 3, per_week: 12 } } });
    expect(merged({ budget: { per_agent: { a: { per_day: 1 } } } }, { budget: { per_agent: { a: { per_day: null } } } }).budget).toEqual({});
  });

  it('replaces the blocked list, dropping exact duplicates', () => {
    const a = { start: '12:00', end: '13:00', label: 'lunch' };
    const s = merged({ blocked: [{ start: '2031-06-02T12:00:00Z', end: '2031-06-02T13:00:00Z' }] }, { blocked: [a, a] });
    expect(s.blocked).toEqual([a]);
    expect(merged({ blocked: [a] }, { tag_mappings: { x: '@morning' } }).blocked).toEqual([a]);
    expect(merged({ blocked: [a] }, { blocked: [] }).blocked).toEqual([]);
  });

  it('lists the tags a profile mentions', () => {
    const s = merged({ tag_mappings: { gym: '@gym-time' }, duration_biases: { meeting: 2, '@focus': 1.5, '25m': 1.2 } });
    expect(tagsOfSettings(s)).toEqual(expect.arrayContaining(['@morning', '@gym-time', '@focus', '25m']));
    expect(tagsOfSettings(s)).not.toContain('meeting');
  });
});

describe('mappings and biases for the planner', () => {
  const s = mergeSettings(
    defaultSettings(),
    prefs({ tag_mappings: { gym: '@morning' }, duration_biases: { meeting: 1.5, call: { minutes: -10 }, '@deep-work': 2 } }),
  );

  it('maps a word to its tag', () => {
    expect(mappedTag(s, ' GYM ')).toBe('@morning');
    expect(mappedTag(s, 'swim')).toBeUndefined();
  });

  it('applies the first matching bias, as a multiplier or minutes', () => {
    expect(applyDurationBias(s, ['meeting'], 30)).toBe(45);
    expect(applyDurationBias(s, [undefined, 'Call'], 30)).toBe(20);
    expect(applyDurationBias(s, ['call'], 5)).toBe(1);
    expect(applyDurationBias(s, ['lunch', '@deep-work'], 45)).toBe(90);
    expect(applyDurationBias(s, ['lunch'], 45)).toBe(45);
  });
});
