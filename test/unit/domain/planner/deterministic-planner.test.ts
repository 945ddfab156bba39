import { describe, expect, it } from 'vitest';
import { ruleStarts } from '../../../../src/domain/calendar/recurrence.js';
import { planPrompt } from '../../../../src/domain/planner/deterministic-planner.js';
import type { CalendarItem, PlannerInput, PlannerProfile } from '../../../../src/domain/planner/types.js';
import { defaultSettings } from '../../../../src/domain/tempo/profile.js';
import { formatInZone, fromZoned } from '../../../../src/time/zoned-time.js';

const BERLIN = 'Europe/Berlin';
const NY = 'America/New_York';

/** A wall time in `zone` as an instant: `at('2026-03-02 09:00', BERLIN)`. */
function at(wall: string, zone: string): Date {
  const [d, t] = wall.split(' ');
  const [year, month, day] = d!.split('-').map(Number);
  const [hour, minute] = t!.split(':').map(Number);
  return fromZoned({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, zone);
}

const event = (uid: string, title: string, start: string, minutes: number, zone = BERLIN): CalendarItem => {
  const s = at(start, zone).getTime();
  return { uid, title, start: s, end: s + minutes * 60_000 };
};

function plan(
  prompt: string,
  o: { now?: string; zone?: string; calendar?: CalendarItem[]; profile?: Partial<PlannerProfile>; counted?: PlannerInput['counted']; taskId?: string } = {},
) {
  const zone = o.zone ?? BERLIN;
  const base = defaultSettings();
  const profile: PlannerProfile = { ...base, ...o.profile, time_ranges: { ...base.time_ranges, ...(o.profile?.time_ranges ?? {}) } };
  const out = planPrompt({
    prompt,
    now: at(o.now ?? '2026-03-02 09:00', zone),
    timezone: zone,
    profile,
    calendar: o.calendar ?? [],
    counted: o.counted,
    taskId: o.taskId,
  });
  const local = out.actions.map((a) => formatInZone(Date.parse(a.scheduled_for), zone).slice(0, 16));
  return { ...out, local };
}

/** The starts a recurring action's event will have (the calendar's own expansion), in `zone`, until `to`. */
function starts(a: { scheduled_for: string; rrule?: string }, zone: string, to = '2027-01-01 00:00', full = false): string[] {
  expect(a.rrule).toBeTruthy();
  const start = Date.parse(a.scheduled_for);
  return ruleStarts({ key: `${a.rrule}@${start}`, start, tz: zone, allDay: false, rrule: a.rrule! }, start, at(to, zone).getTime()).map((t) =>
    formatInZone(t, zone).slice(0, full ? 25 : 16),
  );
}

// The fixed clock of most tests: Monday 2026-03-02 09:00 in Berlin.

describe('explicit dates and times', () => {
  it.each([
    ['Dentist appointment next Tuesday at 3pm for 45 minutes', '2026-03-10T15:00', 45],
    ['Lunch with Jonas on March 12 at 12:30', '2026-03-12T12:30', undefined],
    ['Call the plumber tomorrow at 8:30', '2026-03-03T08:30', undefined],
    ['Haircut the day after tomorrow at 11', '2026-03-04T11:00', undefined],
    ['Pick up the dry cleaning in 3 days at 5pm', '2026-03-05T17:00', undefined],
    ['Coffee with Lena on Wednesday at 3:30pm', '2026-03-04T15:30', undefined],
    ['Team lunch at noon on Friday', '2026-03-06T12:00', undefined],
    ['Conference on 2026-05-21 at 16:15, 30 min', '2026-05-21T16:15', 30],
    ['Meeting with the landlord on the 15th at 2pm', '2026-03-15T14:00', undefined],
    ['Tennis on Saturday at 4', '2026-03-07T16:00', undefined],
    ['Meeting 10-11am tomorrow', '2026-03-03T10:00', 60],
  ])('%s', (prompt, start, minutes) => {
    const r = plan(prompt);
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]!.kind).toBe('add_event');
    expect(r.local[0]).toBe(start);
    if (minutes) expect(r.actions[0]!.duration_minutes).toBe(minutes);
    expect(r.actions[0]!.reasoning).toMatch(/^Explicit time/);
  });

  it('"next <weekday>" is in the next calendar week; a bare weekday is the first one after today', () => {
    // Saturday 7 March: next Friday is 13 March, Friday is 13 March too; Monday 2 March: Monday is the 9th.
    expect(plan('Book club next Friday at 7:30pm', { now: '2026-03-07 10:00' }).local).toEqual(['2026-03-13T19:30']);
    expect(plan('Standup on Monday at 9am').local).toEqual(['2026-03-09T09:00']);
    expect(plan('Standup next Monday at 9am', { now: '2026-03-08 12:00' }).local).toEqual(['2026-03-09T09:00']);
  });

  it('reads a bare hour as people mean it: 7–11 morning, 12 noon, 1–6 afternoon, the named part of the day first', () => {
    expect(plan('Gym tomorrow at 7').local).toEqual(['2026-03-03T07:00']);
    expect(plan('Call tomorrow at 2').local).toEqual(['2026-03-03T14:00']);
    expect(plan('Call dad at 7 tonight').local).toEqual(['2026-03-02T19:00']);
    expect(plan('Tax paperwork Saturday morning at 10 for 2 hrs').local).toEqual(['2026-03-07T10:00']);
    expect(plan('Jog tomorrow at 5 in the morning').local).toEqual(['2026-03-03T05:00']);
  });

  it('keeps an explicit time over an event and names the conflict', () => {
    const r = plan('Coffee with Lena on Wednesday at 3:30pm', { calendar: [event('ev_b', 'Budget review', '2026-03-04 15:00', 60)] });
    expect(r.local).toEqual(['2026-03-04T15:30']);
    expect(r.notes[0]!.conflicts).toEqual(['ev_b']);
    expect(r.actions[0]!.reasoning).toContain('Overlaps "Budget review" 15:00–16:00; kept because you named the time');
  });

  it('a time of day with no day is today when still ahead, else tomorrow', () => {
    expect(plan('Lunch at 1').local).toEqual(['2026-03-02T13:00']);
    expect(plan('Breakfast meeting at 8:00').local).toEqual(['2026-03-03T08:00']);
  });

  it('an explicit day in the past is refused with the reason', () => {
    const r = plan('Dentist today at 8am');
    expect(r.actions).toEqual([]);
    expect(r.reply).toMatch(/in the past/);
  });

  it('reads typos and abbreviations, and says so', () => {
    const r = plan('pls scheduel a dentist appt tomorow at 3 pm');
    expect(r.local).toEqual(['2026-03-03T15:00']);
    expect(r.actions[0]!.title).toBe('Dentist appointment');
    expect(r.actions[0]!.reasoning).toMatch(/Read .*"tomorow" as "tomorrow"/);
  });

  it('strips request phrases and courtesy from the title', () => {
    const r = plan('Um, so, could you maybe put a haircut on my calendar for this Saturday at 10:30 in the morning? thanks so much!!', {
      now: '2026-03-04 18:00',
    });
    expect(r.actions.map((a) => a.title)).toEqual(['Haircut']);
    expect(r.local).toEqual(['2026-03-07T10:30']);
  });
});

describe('durations in every common form', () => {
  it.each([
    ['Physio on Thursday at 9am, 45 min', 45],
    ['Physio on Thursday at 9am, 20 mins', 20],
    ['Physio on Thursday at 9am, 1h30', 90],
    ['Physio on Thursday at 9am, 2h15', 135],
    ['Physio on Thursday at 9am, an hour and a half', 90],
    ['Physio on Thursday at 9am, three quarters of an hour', 45],
    ['90-minute physio on Thursday at 9am', 90],
    ['Physio on Thursday at 9am for 2 hrs', 120],
    ['Physio on Thursday at 9am for half an hour', 30],
    ['Physio 25m on Thursday at 9am', 25],
    ['Physio 1h30m on Thursday at 9am', 90],
    ['Physio on Thursday at 9am for two and a half hours', 150],
  ])('%s → %i minutes', (prompt, minutes) => {
    const r = plan(prompt);
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]!.duration_minutes).toBe(minutes);
    expect(r.actions[0]!.title).toBe('Physio');
  });

  it('a duration block written as a tempo tag becomes the action tag', () => {
    expect(plan('Inbox zero 25m tomorrow at 9').actions[0]).toMatchObject({ duration_minutes: 25, tempo_tag: '25m' });
  });

  it('duration biases adjust an estimate (the booked length), not a length the person stated', () => {
    const profile = { duration_biases: { meeting: 1.5, 'deep work': { minutes: 30 } } };
    const est = plan('Meeting with Tom tomorrow at 10', { profile }).actions[0]!;
    expect(est).toMatchObject({ duration_minutes: 90, estimate_minutes: 60 });
    expect(est.reasoning).toContain('×1.5 duration bias for "meeting"');
    expect(plan('Deep work tomorrow at 10', { profile }).actions[0]).toMatchObject({ duration_minutes: 120, estimate_minutes: 90 });
    expect(plan('Meeting with Tom tomorrow at 10 for 45 minutes', { profile }).actions[0]).toMatchObject({ duration_minutes: 45, estimate_minutes: 45 });
  });
});

describe('free slots in the right range', () => {
  const busyMorning = [event('ev_su', 'Standup', '2026-03-04 09:00', 15), event('ev_ds', 'Design sync', '2026-03-04 10:00', 60)];

  it('a tag range: the first free slot after the named conflicts', () => {
    const r = plan('Write blog post tomorrow @morning for 2 hours', {
      now: '2026-03-03 20:00',
      calendar: [event('ev_e', 'Early call', '2026-03-04 06:00', 150), ...busyMorning],
    });
    // 06:00–08:30 taken; 08:30 + 2h would hit the standup; after the design sync there is 11:00–12:00 only.
    expect(r.actions).toHaveLength(1);
    expect(r.local[0]).toBe('2026-03-05T06:00');
    expect(r.actions[0]!.reasoning).toMatch(/window named had no free 120 minutes/);
    const fits = plan('Write blog post tomorrow @morning', {
      now: '2026-03-03 20:00',
      calendar: [event('ev_e', 'Early call', '2026-03-04 06:00', 150), ...busyMorning],
    });
    expect(fits.local).toEqual(['2026-03-04T11:00']);
    expect(fits.actions[0]!.reasoning).toContain('After the named conflicts "Early call" 06:00–08:30, "Standup" 09:00–09:15, "Design sync" 10:00–11:00');
    expect(fits.actions[0]!.tempo_tag).toBe('@morning');
  });

  it('"find an hour tomorrow afternoon" lands in the gap between meetings', () => {
    const calendar = [
      event('a', 'Lunch', '2026-03-03 12:00', 60),
      event('b', 'Hiring workshop', '2026-03-03 13:00', 90),
      event('c', '1:1 with Marta', '2026-03-03 15:45', 75),
    ];
    const r = plan('Find an hour tomorrow afternoon to prepare the quarterly report', { calendar });
    expect(r.local).toEqual(['2026-03-03T14:30']);
    expect(r.actions[0]).toMatchObject({ title: 'Prepare the quarterly report', duration_minutes: 60, tempo_tag: '@afternoon' });
  });

  it('avoids blocked time and says so', () => {
    const profile = { blocked: [{ start: '06:00', end: '09:00', label: 'school run' }] };
    const r = plan('Run tomorrow morning', { profile });
    expect(r.local).toEqual(['2026-03-03T09:00']);
    expect(r.actions[0]!.reasoning).toContain('Blocked time avoided: school run 06:00–09:00');
  });

  it('skips a day whose budget is used up', () => {
    const counted = [1, 2].map((i) => ({
      kind: 'add_event' as const,
      scheduled_for: at(`2026-03-03 1${i}:00`, BERLIN),
      duration_minutes: 30,
      status: 'proposed' as const,
      proposed_at: at('2026-03-02 08:00', BERLIN),
    }));
    const r = plan('Run sometime this week', { profile: { budget: { per_day: 2 } }, counted, now: '2026-03-02 23:00' });
    expect(r.local[0]!.startsWith('2026-03-04')).toBe(true);
    expect(r.actions[0]!.reasoning).toContain('Skipped Tue 2026-03-03: the day budget is used up');
  });

  it('a tag mapping puts a task in its range', () => {
    const r = plan('Gym tomorrow', { profile: { tag_mappings: { gym: '@evening' } } });
    expect(r.local).toEqual(['2026-03-03T17:00']);
    expect(r.actions[0]!.tempo_tag).toBe('@evening');
  });

  it('a custom range (@deep-work) and the weekend window', () => {
    const r = plan('Draft the grant proposal tomorrow @deep-work 90m', { profile: { time_ranges: { '@deep-work': { start: '09:00', end: '12:00' } } } });
    expect(r.local).toEqual(['2026-03-03T09:00']);
    const w = plan('Plan a hike this weekend, 3 hours', { calendar: [event('bbq', 'BBQ', '2026-03-07 06:00', 300)] });
    expect(w.local).toEqual(['2026-03-07T11:00']);
  });

  it('a full day with no free slot: the first free slot after it, flagged', () => {
    const calendar = [event('all', 'Conference', '2026-03-03 06:00', 16 * 60)];
    const r = plan('Find an hour tomorrow for the tax return', { calendar });
    expect(r.local).toEqual(['2026-03-04T06:00']);
    expect(r.actions[0]!.confidence).toBeLessThan(0.5);
    expect(r.notes[0]!.warnings).toEqual(['the named window is full']);
  });

  it('"tonight" is today 17:00 to midnight; a reflection goes in the evening', () => {
    const r = plan("Reflect on this week's progress tonight", { now: '2026-03-06 09:00' });
    expect(r.actions[0]).toMatchObject({ kind: 'reflect', title: "Reflect on this week's progress", content: "Reflection on this week's progress." });
    expect(r.local).toEqual(['2026-03-06T17:00']);
  });
});

describe('several requests, recurrence, reschedules', () => {
  it('several items in one prompt, a date carried to the next request', () => {
    const r = plan('Tomorrow: dentist at 10am, then groceries at 4pm; also book flights Wednesday at noon');
    expect(r.actions.map((a) => a.title)).toEqual(['Dentist', 'Groceries', 'Book flights']);
    expect(r.local).toEqual(['2026-03-03T10:00', '2026-03-03T16:00', '2026-03-04T12:00']);
    const two = plan('Gym tomorrow 7am for an hour and call mom on Sunday at 6pm');
    expect(two.actions.map((a) => [a.title, a.duration_minutes])).toEqual([
      ['Gym', 60],
      ['Call mom', 30],
    ]);
  });

  it('does not split names or lengths joined by "and"', () => {
    expect(plan('Lunch with Tom and Jerry at noon tomorrow').actions.map((a) => a.title)).toEqual(['Lunch with Tom and Jerry']);
    expect(plan('Physio on Thursday at 9am, an hour and a half').actions).toHaveLength(1);
  });

  it('"every Monday and Wednesday at 7pm in March": ONE recurring action whose occurrences keep 19:00 across DST', () => {
    const r = plan('Yoga every Monday and Wednesday at 7pm for an hour in March');
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]).toMatchObject({ kind: 'add_event', title: 'Yoga', duration_minutes: 60, rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260331T215959Z' });
    // 30 March is after the change to summer time: still 19:00 local.
    expect(starts(r.actions[0]!, BERLIN)).toEqual(['02', '04', '09', '11', '16', '18', '23', '25', '30'].map((d) => `2026-03-${d}T19:00`));
    expect(r.actions[0]!.reasoning).toMatch(/^Recurrence "every Monday and Wednesday" → one repeating event, every Monday and Wednesday until 2026-03-31/);
    expect(r.reply).toContain('repeating every Monday and Wednesday until 2026-03-31');
  });

  it('"gym every monday and thursday at 7am for an hour": one RRULE, open-ended, 07:00 in the user\'s zone', () => {
    const r = plan('gym every monday and thursday at 7am for an hour');
    expect(r.actions).toEqual([
      expect.objectContaining({
        kind: 'add_event',
        title: 'Gym',
        rrule: 'FREQ=WEEKLY;BYDAY=MO,TH',
        duration_minutes: 60,
        scheduled_for: '2026-03-05T06:00:00.000Z',
      }),
    ]);
    expect(starts(r.actions[0]!, BERLIN, '2026-03-17 00:00')).toEqual(['2026-03-05T07:00', '2026-03-09T07:00', '2026-03-12T07:00', '2026-03-16T07:00']);
  });

  it('"for the next 3 weeks", "until Friday", "every other", "N times"', () => {
    const piano = plan('Piano lesson every Tuesday at 5:30pm for the next 3 weeks', { zone: NY, now: '2026-10-01 12:00' });
    expect(starts(piano.actions[0]!, NY)).toEqual(['2026-10-06T17:30', '2026-10-13T17:30', '2026-10-20T17:30']);
    const daily = plan('Piano practice daily at 7pm until Friday');
    expect(daily.actions).toHaveLength(1);
    expect(starts(daily.actions[0]!, BERLIN)).toHaveLength(5);
    const retro = plan('Retro every other Friday at 3pm for the next 5 weeks');
    expect(retro.actions[0]!.rrule).toMatch(/^FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;UNTIL=/);
    expect(starts(retro.actions[0]!, BERLIN)).toEqual(['2026-03-06T15:00', '2026-03-20T15:00', '2026-04-03T15:00']);
    const standup = plan('Standup every weekday at 9:30 for 15 minutes, 10 times');
    expect(standup.actions[0]).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=10', duration_minutes: 15 });
    expect(starts(standup.actions[0]!, BERLIN)).toHaveLength(10);
  });

  it('without a time, the series takes the first free slot of the window on its first day', () => {
    const r = plan('Run every other friday morning', { calendar: [event('ev_x', 'Early call', '2026-03-06 06:00', 60)] });
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]).toMatchObject({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR' });
    expect(r.local).toEqual(['2026-03-06T07:00']);
  });

  it('a repeated reflection stays one reflect action per occurrence (a reflection is a trace, not an event)', () => {
    const r = plan('reflect every friday evening');
    expect(r.actions.every((a) => a.kind === 'reflect' && a.rrule === undefined)).toBe(true);
    expect(r.actions).toHaveLength(4);
  });

  const calendar = [
    event('ev_dent', 'Dentist', '2026-03-03 15:00', 45),
    event('ev_sync', 'Team sync', '2026-03-03 11:00', 30),
    event('ev_gym', 'Gym', '2026-03-04 07:00', 60),
    event('ev_11', '1:1 with Priya', '2026-03-05 10:00', 30),
    event('ev_lunch', 'Lunch', '2026-03-06 12:00', 60),
  ];

  it.each([
    ['Move my dentist appointment to Thursday 10am', 'ev_dent', '2026-03-05T10:00', 45],
    ['Push the team sync back by an hour', 'ev_sync', '2026-03-03T12:00', 30],
    ['Bring the team sync forward by 30 minutes', 'ev_sync', '2026-03-03T10:30', 30],
    ['Postpone my gym by a week', 'ev_gym', '2026-03-11T07:00', 60],
    ['Can we do my 1:1 with Priya on Friday afternoon instead?', 'ev_11', '2026-03-06T13:00', 30],
    ['Move the dentist to 4pm', 'ev_dent', '2026-03-03T16:00', 45],
    ['Reschedule the dentist to Friday', 'ev_dent', '2026-03-06T15:00', 45],
  ])('%s', (prompt, uid, start, minutes) => {
    const r = plan(prompt, { calendar });
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]).toMatchObject({ kind: 'reschedule_event', event_uid: uid, duration_minutes: minutes });
    expect(r.local[0]).toBe(start);
    expect(r.actions[0]!.reasoning).toMatch(/^Found "/);
  });

  it('a shift by days keeps the local wall-clock time across the DST change', () => {
    const r = plan('Postpone my haircut by a week', { now: '2026-03-26 09:00', calendar: [event('h', 'Haircut', '2026-03-27 17:00', 30)] });
    expect(r.actions[0]!.scheduled_for).toBe('2026-04-03T15:00:00.000Z'); // 17:00 CEST
  });

  it('a move with no matching event says so instead of inventing one', () => {
    const r = plan('Move the board meeting to Friday at 10', { calendar });
    expect(r.actions).toEqual([]);
    expect(r.reply).toContain('I found no event matching');
  });
});

describe('DST weeks in two zones', () => {
  it('Berlin, the week of 29 March: explicit times keep their wall clock', () => {
    const r = plan('Call with the Lisbon office on Monday at 9am', { now: '2026-03-27 10:00' });
    expect(r.actions[0]!.scheduled_for).toBe('2026-03-30T07:00:00.000Z');
    const daily = plan('Standup every day at 9:00 until Tuesday', { now: '2026-03-27 10:00' });
    expect(starts(daily.actions[0]!, BERLIN, '2027-01-01 00:00', true)).toEqual([
      '2026-03-28T09:00:00+01:00',
      '2026-03-29T09:00:00+02:00',
      '2026-03-30T09:00:00+02:00',
      '2026-03-31T09:00:00+02:00',
    ]);
  });

  it('Berlin on the night of the change: a free slot search keeps to the wall clock', () => {
    const r = plan('Run on Sunday morning', { now: '2026-03-27 10:00' });
    expect(r.actions[0]!.scheduled_for).toBe('2026-03-29T04:00:00.000Z'); // 06:00 CEST
  });

  it('New York, the weeks of 8 March and 1 November', () => {
    expect(plan('Brunch with Dana on Sunday at 11am', { zone: NY, now: '2026-03-06 17:00' }).actions[0]!.scheduled_for).toBe('2026-03-08T15:00:00.000Z');
    expect(plan('Car service in 5 days at 8am, 2 hours', { zone: NY, now: '2026-10-29 15:00' }).actions[0]).toMatchObject({
      scheduled_for: '2026-11-03T13:00:00.000Z',
      duration_minutes: 120,
    });
    const weekly = plan('Spin class every Sunday at 7am for the next 3 weeks', { zone: NY, now: '2026-10-20 09:00' });
    expect(starts(weekly.actions[0]!, NY, '2027-01-01 00:00', true)).toEqual([
      '2026-10-25T07:00:00-04:00',
      '2026-11-01T07:00:00-05:00',
      '2026-11-08T07:00:00-05:00',
    ]);
  });
});

describe('nothing to schedule', () => {
  it.each(['hello, how are you doing today?', "thanks, that's all for now", 'asdf qwerty', 'what time is it?', 'lol'])(
    '%s → no actions and a reply saying why',
    (prompt) => {
      const r = plan(prompt);
      expect(r.actions).toEqual([]);
      expect(r.reply).toMatch(/^Nothing to schedule/);
    },
  );

  it('a task without any time asks for one', () => {
    const r = plan('Buy milk');
    expect(r.actions).toEqual([]);
    expect(r.skipped[0]!.reason).toMatch(/has no date, time or length/);
  });

  it('same input, same plan (deterministic)', () => {
    expect(plan('Gym tomorrow 7am for an hour and call mom on Sunday at 6pm')).toEqual(plan('Gym tomorrow 7am for an hour and call mom on Sunday at 6pm'));
  });

  it('task ids come from the request or the titles', () => {
    expect(plan('Gym tomorrow at 7', { taskId: 'health' }).actions[0]!.task_id).toBe('health');
    expect(plan('Dentist appointment tomorrow at 3pm').actions[0]!.task_id).toBe('dentist-appointment');
  });
});

describe('repeats, clauses and impossible times (issue 19)', () => {
  it('an adjective is not a repeat: "do the weekly grocery order tomorrow" is one event, and keeps its word', () => {
    const r = plan('do the weekly grocery order tomorrow');
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]).toMatchObject({ title: 'Do the weekly grocery order' });
    expect(r.actions[0]!.rrule).toBeUndefined();
    expect(r.local[0]!.slice(0, 10)).toBe('2026-03-03');
    expect(plan('weekly review on friday at 4pm').actions).toEqual([expect.not.objectContaining({ rrule: expect.anything() })]);
    // Without a determiner or a single day, the word still repeats.
    expect(plan('daily standup at 9:30 for 15 minutes').actions[0]).toMatchObject({ title: 'Standup', rrule: 'FREQ=DAILY' });
  });

  it('a date binds to its own clause: the reflection goes on Friday, the invoices tomorrow morning', () => {
    const r = plan('45m for invoices tomorrow morning and reflect on the quarter Friday evening');
    expect(r.actions.map((a) => [a.kind, a.title])).toEqual([
      ['add_event', 'Invoices'],
      ['reflect', 'Reflect on the quarter'],
    ]);
    expect(r.local[0]!.slice(0, 10)).toBe('2026-03-03');
    expect(r.local[1]!.slice(0, 10)).toBe('2026-03-06');
    expect(Number(r.local[1]!.slice(11, 13))).toBeGreaterThanOrEqual(17);
  });

  it.each([
    ['gym tomorrow at 25:00', '"25:00" is not a time of day (hours run from 0 to 23)'],
    ['dentist at 10:75 tomorrow', '"10:75" is not a time of day (minutes run from 0 to 59)'],
    ['call mom at 13pm', '"13pm" is not a time of day (with am or pm, hours run from 1 to 12)'],
    ['lunch tomorrow 99', '"99" is not a time of day'],
  ])('an impossible time is refused with the reason, not made a title: %s', (prompt, why) => {
    const r = plan(prompt);
    expect(r.actions).toEqual([]);
    expect(r.skipped[0]!.reason).toContain(why);
    expect(r.reply).toContain(why);
  });

  it('the other requests of the prompt are still planned, and numbers that are not times stay in titles', () => {
    const r = plan('gym tomorrow at 7 and lunch at 25:00');
    expect(r.actions.map((a) => a.title)).toEqual(['Gym']);
    expect(r.reply).toContain('Not planned: "25:00" is not a time of day');
    expect(plan('meet at 99 Main St tomorrow at 3pm').actions[0]).toMatchObject({ title: 'Meet at 99 Main St' });
  });
});

describe('a learned duration bias books in fives', () => {
  it('60 min × 1.13 is booked as 70 min, not 68 (no 07:00–08:08)', () => {
    const profile = { duration_biases: { gym: 1.13 } };
    const a = plan('Gym tomorrow at 7am', { profile }).actions[0]!;
    expect(a).toMatchObject({ estimate_minutes: 60, duration_minutes: 70 });
  });
});
