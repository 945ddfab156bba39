import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { parseOr422 } from '../../../src/server/validate.js';
import { isTempoTag, TempoTagSchema, tagMinutes } from '../../../src/time/tags.js';

describe('tempo tag grammar', () => {
  it.each([
    ['@morning', '@morning', undefined],
    ['@deep-work', '@deep-work', undefined],
    ['@q3-review', '@q3-review', undefined],
    ['@2024', '@2024', undefined],
    ['@Morning', '@morning', undefined],
    ['  @EVENING ', '@evening', undefined],
    ['25m', '25m', 25],
    ['90m', '90m', 90],
    ['2h', '2h', 120],
    ['1h30m', '1h30m', 90],
    ['1H30M', '1h30m', 90],
    ['0h45m', '0h45m', 45],
  ])('%j is valid → %j (%s min)', (input, normalized, minutes) => {
    expect(isTempoTag(input)).toBe(true);
    expect(TempoTagSchema.parse(input)).toBe(normalized);
    expect(tagMinutes(input)).toBe(minutes);
  });

  it.each([
    'morning',
    '@',
    '@-work',
    '@deep--work',
    '@deep-work-',
    '@deep_work',
    '@deep work',
    '@café',
    'Morning!!',
    '#morning',
    '0m',
    '0h',
    '0h0m',
    'm',
    'h',
    '25',
    '25min',
    '1.5h',
    '30m1h',
    '-25m',
    '1h 30m',
    '',
  ])('%j is not a tag', (input) => {
    expect(isTempoTag(input)).toBe(false);
    expect(tagMinutes(input)).toBeUndefined();
    const err = (() => {
      try {
        parseOr422(TempoTagSchema, input, 'body');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    expect((err as AppError).code).toBe('invalid_tempo_tag');
  });
});

describe('the 422 of a bad tag', () => {
  it('names the offending value as given', () => {
    try {
      parseOr422(TempoTagSchema, 'Morning!!', 'body');
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).message).toContain('"Morning!!" is not a tempo tag');
      expect((e as AppError).details?.[0]?.message).toContain('"Morning!!"');
    }
  });
});
