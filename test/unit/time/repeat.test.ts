import { describe, expect, it } from 'vitest';
import { describeRrule, parseRepeat } from '../../../src/time/repeat.js';
import { rruleProblem } from '../../../src/time/rrule.js';

describe('--repeat in words', () => {
  it.each([
    ['daily', 'FREQ=DAILY', 'daily'],
    ['weekly', 'FREQ=WEEKLY', 'weekly'],
    ['every weekday', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'every weekday'],
    ['every monday and thursday', 'FREQ=WEEKLY;BYDAY=MO,TH', 'every Monday and Thursday'],
    ['every mon, wed and fri', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', 'every Monday, Wednesday and Friday'],
    ['every 2 weeks', 'FREQ=WEEKLY;INTERVAL=2', 'every 2 weeks'],
    ['every other friday', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR', 'every 2 weeks on Friday'],
    ['every other week', 'FREQ=WEEKLY;INTERVAL=2', 'every 2 weeks'],
    ['each monday', 'FREQ=WEEKLY;BYDAY=MO', 'every Monday'],
    ['monthly on the 3rd wednesday', 'FREQ=MONTHLY;BYDAY=3WE', 'monthly on the 3rd Wednesday'],
    ['monthly on the last friday', 'FREQ=MONTHLY;BYDAY=-1FR', 'monthly on the last Friday'],
    ['monthly on the 15th', 'FREQ=MONTHLY;BYMONTHDAY=15', 'monthly on the 15th'],
    ['daily, 5 times', 'FREQ=DAILY;COUNT=5', 'daily, 5 times'],
    ['every weekday until 2027-06-30', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20270701T035959Z', 'every weekday until 2027-06-30'],
  ])('%s → %s → %s', (words, rule, back) => {
    const r = parseRepeat(words, 'America/New_York');
    expect(r).toBe(rule);
    expect(rruleProblem(r)).toBeUndefined();
    expect(describeRrule(r, 'America/New_York')).toBe(back);
  });

  it('a raw RRULE passes as given; what it cannot read is refused naming the flag, with examples (exit 6)', () => {
    expect(parseRepeat('RRULE:FREQ=WEEKLY;BYDAY=MO', 'UTC')).toBe('FREQ=WEEKLY;BYDAY=MO');
    for (const bad of ['EVERYWEEKDAY', 'every blue moon', 'every funday', '5 times', 'daily until 2027-02-31']) {
      let err: any;
      try {
        parseRepeat(bad, 'UTC');
      } catch (e) {
        err = e;
      }
      expect(err?.status, bad).toBe(422);
      expect(err.message).toMatch(/^--repeat: .*every monday and thursday/);
    }
  });

  it('a rule with parts it does not read is shown as it is', () => {
    expect(describeRrule('FREQ=WEEKLY;BYHOUR=9', 'UTC')).toBe('FREQ=WEEKLY;BYHOUR=9');
  });
});
