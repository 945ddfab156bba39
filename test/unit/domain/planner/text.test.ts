import { describe, expect, it } from 'vitest';
import { matchEvent } from '../../../../src/domain/planner/event-match.js';
import { extractTimeAmounts } from '../../../../src/domain/planner/extract/durations.js';
import { extractFeatures } from '../../../../src/domain/planner/extract/index.js';
import { segment } from '../../../../src/domain/planner/segment.js';
import { editDistance, normalizePrompt } from '../../../../src/domain/planner/text/normalize.js';
import { slug, titleFrom } from '../../../../src/domain/planner/text/title.js';

const NOW = { today: { year: 2026, month: 3, day: 2 }, hour: 9, minute: 0, instant: new Date('2026-03-02T08:00:00Z'), offsetMinutes: 60 };

function pieces(prompt: string): string[] {
  const n = normalizePrompt(prompt);
  return segment(n.lower, extractFeatures(n, NOW)).map((s) => n.text.slice(s.start, s.end).trim());
}

describe('normalization', () => {
  it('fixes misspelled date words and request verbs, expands abbreviations, keeps real words', () => {
    const n = normalizePrompt('pls scheduel a dentist appt tomorow, thrusday or wendesday; the football match');
    expect(n.text).toBe('pls schedule a dentist appointment tomorrow, thursday or wednesday; the football match');
    expect(n.fixes.map((f) => f.kind)).toEqual(['typo', 'abbreviation', 'typo', 'typo', 'typo']);
    expect(normalizePrompt('Call HR tmrw').text).toBe('Call HR tomorrow');
    expect(editDistance('tomorow', 'tomorrow')).toBe(1);
    expect(editDistance('thrusday', 'thursday')).toBe(1);
  });

  it('keeps line breaks as separators and drops list markers', () => {
    expect(normalizePrompt('- dentist tomorrow 3pm\n- gym friday 7am').text).toBe('dentist tomorrow 3pm\ngym friday 7am');
  });
});

describe('lengths of time by their role', () => {
  it.each([
    ['for 45 minutes', 'duration', 45],
    ['in 30 minutes', 'relative', 30],
    ['squeeze in 30 minutes', 'duration', 30],
    ['back by an hour', 'shift', 60],
    ['forward by 15 min', 'shift', -15],
    ['an hour later', 'shift', 60],
    ['a couple of hours', 'duration', 120],
    ['1.5 hours', 'duration', 90],
    ['every 2 hours', undefined, undefined],
  ])('%s → %s %s', (text, role, minutes) => {
    const a = extractTimeAmounts(text);
    const all = [
      ...a.durations.map((d) => ['duration', d.minutes]),
      ...a.relatives.map((d) => ['relative', d.minutes]),
      ...a.shifts.map((d) => ['shift', d.minutes]),
    ];
    expect(all).toEqual(role ? [[role, minutes]] : []);
  });

  it('day and week shifts keep to calendar days', () => {
    expect(extractTimeAmounts('postpone it by a week').shifts).toMatchObject([{ days: 7 }]);
    expect(extractTimeAmounts('move it two days earlier').shifts).toMatchObject([{ days: -2 }]);
  });
});

describe('splitting a prompt into requests', () => {
  it.each([
    ['Gym tomorrow 7am for an hour and call mom on Sunday at 6pm', ['Gym tomorrow 7am for an hour', 'call mom on Sunday at 6pm']],
    [
      'Tomorrow: dentist at 10am, then groceries at 4pm; also book flights Wednesday at noon',
      ['Tomorrow: dentist at 10am', 'groceries at 4pm', 'book flights Wednesday at noon'],
    ],
    ['Lunch with Tom and Jerry at noon', ['Lunch with Tom and Jerry at noon']],
    ['Yoga every Monday and Wednesday at 7pm', ['Yoga every Monday and Wednesday at 7pm']],
    ['Physio on Thursday at 9am, an hour and a half', ['Physio on Thursday at 9am, an hour and a half']],
    ['Sometime tomorrow morning, go for a run', ['Sometime tomorrow morning, go for a run']],
    ['Dentist at 3pm. Gym on Friday at 7am.', ['Dentist at 3pm.', 'Gym on Friday at 7am.']],
  ])('%s', (prompt, expected) => {
    expect(pieces(prompt)).toEqual(expected);
  });
});

describe('titles', () => {
  it.each([
    ['Um, so, could you maybe put a haircut on my calendar for        ? thanks so much!!', 'Haircut'],
    ['Find   to prepare the quarterly report', 'Prepare the quarterly report'],
    ['Lunch with Jonas on      ', 'Lunch with Jonas'],
    ['Need    of focus time', 'Focus time'],
    ['Remind me to call mom', 'Call mom'],
  ])('%s → %s', (blanked, title) => {
    expect(titleFrom(blanked)).toBe(title);
  });

  it('slugs make task ids', () => {
    expect(slug('Lunch with Jonas!')).toBe('lunch-with-jonas');
    expect(slug('Café crème')).toBe('cafe-creme');
    expect(slug('!!!')).toBe('task');
  });
});

describe('finding the event a reschedule names', () => {
  const items = [
    { uid: 'a', title: 'Team sync', start: 1000, end: 2000 },
    { uid: 'b', title: 'Sync with vendor', start: 3000, end: 4000 },
    { uid: 'c', title: 'Dentist appointment', start: 5000, end: 6000 },
    { uid: 'd', title: 'Budget meeting', start: 7000, end: 8000 },
  ];
  it('covers the title best, tolerates typos, ignores generic words alone', () => {
    expect(matchEvent(['team', 'sync'], items, 0)?.item.uid).toBe('a');
    expect(matchEvent(['dentst'], items, 0)?.item.uid).toBe('c');
    expect(matchEvent(['dentist'], items.slice(0, 2), 0)).toBeUndefined();
    expect(matchEvent(['dentsit', 'appointment'], items, 0)?.item.uid).toBe('c');
    expect(matchEvent(['meeting'], items, 0)).toBeUndefined();
    expect(matchEvent(['budget'], items, 0)?.item.uid).toBe('d');
  });
});
