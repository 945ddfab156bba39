import { describe, expect, it } from 'vitest';
import { canonicalRrule, rruleProblem } from '../../../src/time/rrule.js';

describe('RRULE validation', () => {
  it.each([
    ['FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=WEEKLY;BYDAY=MO,WE'],
    ['rrule:freq=daily;count=3', 'FREQ=DAILY;COUNT=3'],
    ['BYDAY=MO, TU;FREQ=WEEKLY', 'FREQ=WEEKLY;BYDAY=MO,TU'],
    ['FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20311231T235959Z', 'FREQ=MONTHLY;UNTIL=20311231T235959Z;BYDAY=-1FR'],
  ])('%s → %s', (input, canonical) => expect(canonicalRrule(input)).toBe(canonical));

  it.each([
    ['', /empty/],
    ['BYDAY=MO', /FREQ is required/],
    ['FREQ=FORTNIGHTLY', /not one of/],
    ['FREQ=MINUTELY', /not supported/],
    ['FREQ=DAILY;COUNT=3;UNTIL=20310101', /COUNT and UNTIL/],
    ['FREQ=DAILY;COUNT=0', /positive integer/],
    ['FREQ=WEEKLY;BYDAY=XX', /BYDAY/],
    ['FREQ=YEARLY;BYMONTH=13', /out of range/],
    ['FREQ=DAILY;UNTIL=tomorrow', /UNTIL/],
    ['FREQ=DAILY;SOMETIMES=1', /unknown rule part/],
  ])('%j is refused (%s)', (input, why) => expect(rruleProblem(input)).toMatch(why));
});
