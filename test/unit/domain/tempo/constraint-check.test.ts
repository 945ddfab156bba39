import { describe, expect, it } from 'vitest';
import type { Budget, Cadence } from '../../../../src/contracts/tempo.js';
import {
  type CandidateAction,
  type ConstraintRules,
  type CountedAction,
  checkAction,
  checkPlan,
  violationDetails,
} from '../../../../src/domain/tempo/constraint-check.js';

const BERLIN = 'Europe/Berlin';
/** The fixed clock: Wednesday 2025-03-26 10:00 in Berlin (09:00Z). */
const NOW = new Date('2025-03-26T09:00:00Z');

const rules = (r: Partial<ConstraintRules>): ConstraintRules => ({ blocked: [], cadence: {}, budget: {}, ...r });
const act = (scheduled_for: string, extra: Partial<CandidateAction> = {}): CandidateAction => ({
  kind: 'add_event',
  scheduled_for,
  duration_minutes: 30,
  ...extra,
});
const counted = (scheduled_for: string, extra: Partial<CountedAction> = {}): CountedAction => ({
  ...act(scheduled_for),
  status: 'proposed',
  proposed_at: NOW,
  ...extra,
});
const check = (candidate: CandidateAction, r: Partial<ConstraintRules>, actions: CountedAction[] = [], zone = BERLIN, now = NOW) =>
  checkAction(candidate, { rules: rules(r), timezone: zone, now, actions });

describe('blocked slots', () => {
  // Friday night 22:00 until Saturday 06:00.
  const friNight = { blocked: [{ start: '22:00', end: '06:00', days: ['fri' as const], label: 'sleep' }] };

  it('blocks a weekly range across midnight into the next morning', () => {
    const r = check(act('2025-03-29T05:30:00+01:00'), friNight); // Saturday 05:30
    expect(r.ok).toBe(false);
    expect(r.violations).toEqual([
      {
        rule: 'blocked_slot',
        message: 'fri 2025-03-28 22:00 – sat 2025-03-29 06:00 is blocked (sleep) (Europe/Berlin)',
        start: '2025-03-28T21:00:00.000Z',
        end: '2025-03-29T05:00:00.000Z',
        overlap_minutes: 30,
        label: 'sleep',
      },
    ]);
  });

  it('allows the minute the range ends and the days it does not start on', () => {
    expect(check(act('2025-03-29T06:00:00+01:00'), friNight).ok).toBe(true);
    expect(check(act('2025-03-27T23:00:00+01:00'), friNight).ok).toBe(true); // Thursday night
    expect(check(act('2025-03-28T21:00:00+01:00', { duration_minutes: 60 }), friNight).ok).toBe(true); // ends as the block starts
  });

  it('reports the overlap of an action running into the block', () => {
    const r = check(act('2025-03-28T21:30:00+01:00', { duration_minutes: 45 }), friNight);
    expect(r.violations).toMatchObject([{ rule: 'blocked_slot', overlap_minutes: 15 }]);
  });

  it('blocks a zero-length reflection at a blocked instant', () => {
    expect(check(act('2025-03-29T02:00:00+01:00', { kind: 'reflect', duration_minutes: 0 }), friNight).ok).toBe(false);
  });

  it('blocks one-off ranges and lists every block hit', () => {
    const r = check(act('2031-06-02T11:30:00Z', { duration_minutes: 120 }), {
      blocked: [
        { start: '2031-06-02T12:00:00.000Z', end: '2031-06-02T13:00:00.000Z' },
        { start: '13:30', end: '14:00', days: ['mon'] }, // 11:30–12:00Z in Berlin summer time
      ],
    });
    expect(r.violations.map((v) => v.rule === 'blocked_slot' && [v.start, v.overlap_minutes])).toEqual([
      ['2031-06-02T11:30:00.000Z', 30],
      ['2031-06-02T12:00:00.000Z', 60],
    ]);
  });

  it('reads weekly blocks in the user zone, on either side of a DST change', () => {
    const nightly = { blocked: [{ start: '02:00', end: '03:00' }] };
    // 2025-03-30: 02:00–03:00 does not exist in Berlin, so nothing is blocked that night.
    expect(check(act('2025-03-30T01:00:00Z'), nightly).ok).toBe(true); // 03:00 CEST
    expect(check(act('2025-03-30T00:45:00Z'), nightly).ok).toBe(true); // 01:45 CET, ends 03:15 CEST
    // 2025-10-26: 02:00 CEST until 03:00 CET is two real hours; the repeated 02:30 is blocked too.
    expect(check(act('2025-10-26T01:30:00Z'), nightly).violations).toMatchObject([{ start: '2025-10-26T00:00:00.000Z', end: '2025-10-26T02:00:00.000Z' }]);
    // Same wall time, other zone: New York's 02:00 is 07:00Z in October.
    expect(check(act('2025-10-26T01:30:00Z'), nightly, [], 'America/New_York').ok).toBe(true);
    expect(check(act('2025-10-26T06:15:00Z'), nightly, [], 'America/New_York').ok).toBe(false);
  });
});

describe('budgets', () => {
  const budget: Budget = { per_day: 2, per_week: 5, per_agent: { scout: { per_day: 1 } } };

  it('refuses the action that would exceed the daily budget, counting only that local day', () => {
    const existing = [counted('2025-03-27T08:00:00Z'), counted('2025-03-27T22:30:00Z')]; // Thu 09:00 and Thu 23:30 in Berlin
    const r = check(act('2025-03-27T12:00:00Z'), { budget }, existing);
    expect(r.violations).toEqual([
      {
        rule: 'budget_day',
        message: 'agents may schedule at most 2 actions per day; 2 already scheduled in 2025-03-27',
        period: '2025-03-27',
        limit: 2,
        count: 2,
      },
    ]);
    // 23:30Z on Thursday is already Friday in Berlin, so Friday has one.
    expect(check(act('2025-03-28T12:00:00Z'), { budget }, [...existing, counted('2025-03-27T23:30:00Z')]).ok).toBe(true);
  });

  it('does not count rejected actions', () => {
    const existing = [counted('2025-03-27T08:00:00Z'), counted('2025-03-27T09:00:00Z', { status: 'rejected' })];
    expect(check(act('2025-03-27T12:00:00Z'), { budget }, existing).ok).toBe(true);
    expect(check(act('2025-03-27T12:00:00Z'), { budget }, [...existing, counted('2025-03-27T10:00:00Z', { status: 'executed' })]).ok).toBe(false);
  });

  it('keeps a budget per agent beside the overall one', () => {
    const existing = [counted('2025-03-27T08:00:00Z', { agent_id: 'scout' })];
    const r = check(act('2025-03-27T12:00:00Z', { agent_id: 'scout' }), { budget }, existing);
    expect(r.violations).toMatchObject([{ rule: 'budget_day', agent_id: 'scout', limit: 1, count: 1, period: '2025-03-27' }]);
    expect(check(act('2025-03-27T12:00:00Z', { agent_id: 'helper' }), { budget }, existing).ok).toBe(true);
  });

  it('reports the daily and weekly budgets, overall and per agent, when all are spent', () => {
    const week = ['2025-03-24T08:00:00Z', '2025-03-25T08:00:00Z', '2025-03-26T08:00:00Z', '2025-03-27T08:00:00Z', '2025-03-27T09:00:00Z'];
    const r = check(
      act('2025-03-27T12:00:00Z', { agent_id: 'scout' }),
      { budget: { ...budget, per_agent: { scout: { per_day: 2, per_week: 5 } } } },
      week.map((t) => counted(t, { agent_id: 'scout' })),
    );
    expect(r.violations.map((v) => [v.rule, 'agent_id' in v ? v.agent_id : null, 'count' in v ? v.count : null])).toEqual([
      ['budget_day', null, 2],
      ['budget_week', null, 5],
      ['budget_day', 'scout', 2],
      ['budget_week', 'scout', 5],
    ]);
  });

  it('counts an ISO week from local Monday to local Monday across the DST change', () => {
    // Week 2025-W13 in Berlin runs from 2025-03-23T23:00Z to 2025-03-30T22:00Z (167 hours).
    const inWeek = [
      counted('2025-03-23T23:30:00Z'), // Monday 00:30 CET (still Sunday in UTC)
      counted('2025-03-30T21:30:00Z'), // Sunday 23:30 CEST
      counted('2025-03-30T01:15:00Z'), // Sunday 03:15 CEST, just after the gap
    ];
    const nextWeek = counted('2025-03-30T22:15:00Z'); // Monday 00:15 CEST (still Sunday in UTC)
    const lastWeek = counted('2025-03-23T22:45:00Z'); // Sunday 23:45 CET
    const weekly = { budget: { per_week: 3 } };
    const r = check(act('2025-03-26T12:00:00Z'), weekly, [...inWeek, nextWeek, lastWeek]);
    expect(r.violations).toMatchObject([{ rule: 'budget_week', period: '2025-W13', limit: 3, count: 3 }]);
    expect(check(act('2025-03-26T12:00:00Z'), weekly, [...inWeek.slice(1), nextWeek, lastWeek]).ok).toBe(true);
    // Seen from New York, Monday 00:30 in Berlin is still the Sunday of the week before.
    const once = { budget: { per_week: 1 } };
    expect(check(act('2025-03-26T12:00:00Z'), once, [inWeek[0]!, lastWeek]).ok).toBe(false);
    expect(check(act('2025-03-26T12:00:00Z'), once, [inWeek[0]!, lastWeek], 'America/New_York').ok).toBe(true);
  });
});

describe('cadence', () => {
  const cadence: Cadence = { reflect: { max: 1, per: 'day' }, reschedule_event: { max: 2, per: 'week', per_event: true } };

  it('counts proposals made on the local day of "now", whatever they schedule', () => {
    const reflect = { kind: 'reflect' as const, duration_minutes: 0 };
    const madeToday = counted('2025-04-10T08:00:00Z', { ...reflect, proposed_at: '2025-03-26T05:00:00Z' });
    const madeYesterday = counted('2025-03-26T08:00:00Z', { ...reflect, proposed_at: '2025-03-25T22:30:00Z' }); // 23:30 Berlin on the 25th
    const r = check(act('2025-03-30T08:00:00Z', reflect), { cadence }, [madeToday, madeYesterday]);
    expect(r.violations).toEqual([
      {
        rule: 'cadence',
        message: 'reflect may be proposed at most 1 time per day; 1 already proposed in 2025-03-26',
        kind: 'reflect',
        per: 'day',
        period: '2025-03-26',
        max: 1,
        count: 1,
      },
    ]);
    expect(check(act('2025-03-30T08:00:00Z', reflect), { cadence }, [madeYesterday]).ok).toBe(true);
  });

  it('counts rejected proposals too: the rule limits how often agents ask', () => {
    const rejected = counted('2025-03-27T08:00:00Z', { kind: 'reflect', status: 'rejected' });
    expect(check(act('2025-03-27T09:00:00Z', { kind: 'reflect' }), { cadence }, [rejected]).ok).toBe(false);
  });

  it('counts reschedules per event and per ISO week', () => {
    const move = (uid: string, proposed_at: string, status: CountedAction['status'] = 'proposed') =>
      counted('2025-03-28T10:00:00Z', { kind: 'reschedule_event', event_uid: uid, proposed_at, status });
    const existing = [
      move('ev_1', '2025-03-24T07:00:00Z'),
      move('ev_1', '2025-03-25T07:00:00Z', 'rejected'),
      move('ev_1', '2025-03-21T07:00:00Z'), // the week before
      move('ev_2', '2025-03-25T07:00:00Z'),
    ];
    const r = check(act('2025-03-28T10:00:00Z', { kind: 'reschedule_event', event_uid: 'ev_1' }), { cadence }, existing);
    expect(r.violations).toEqual([
      {
        rule: 'cadence',
        message: 'reschedule_event may be proposed at most 2 times per week for event ev_1; 2 already proposed in 2025-W13',
        kind: 'reschedule_event',
        per: 'week',
        period: '2025-W13',
        max: 2,
        count: 2,
        event_uid: 'ev_1',
      },
    ]);
    expect(check(act('2025-03-28T10:00:00Z', { kind: 'reschedule_event', event_uid: 'ev_2' }), { cadence }, existing).ok).toBe(true);
    // Next Monday (local) the week starts over.
    const monday = new Date('2025-03-30T22:30:00Z');
    expect(check(act('2025-04-01T10:00:00Z', { kind: 'reschedule_event', event_uid: 'ev_1' }), { cadence }, existing, BERLIN, monday).ok).toBe(true);
  });

  it('forbids a kind outright with max 0', () => {
    expect(check(act('2025-03-28T10:00:00Z'), { cadence: { add_event: { max: 0, per: 'day' } } }).violations).toMatchObject([
      { rule: 'cadence', max: 0, count: 0 },
    ]);
  });
});

describe('a whole plan', () => {
  it('counts the earlier actions of the same plan', () => {
    const plan = [act('2025-03-27T08:00:00Z', { kind: 'reflect' }), act('2025-03-28T08:00:00Z', { kind: 'reflect' }), act('2025-03-28T09:00:00Z')];
    const r = checkPlan(plan, {
      rules: rules({ cadence: { reflect: { max: 1, per: 'day' } }, budget: { per_week: 2 } }),
      timezone: BERLIN,
      now: NOW,
      actions: [],
    });
    expect(r.ok).toBe(false);
    expect(r.results.map((x) => x.ok)).toEqual([true, false, false]);
    expect(r.violations.map((v) => [v.action_index, v.rule])).toEqual([
      [1, 'cadence'],
      [2, 'budget_week'],
    ]);
    expect(violationDetails(r.violations)).toMatchObject([
      { path: 'actions.1.kind', rule: 'cadence', max: 1, count: 1 },
      { path: 'actions.2.scheduled_for', rule: 'budget_week', limit: 2, count: 2 },
    ]);
  });

  it('passes a plan within every rule', () => {
    const r = checkPlan([act('2025-03-27T08:00:00Z')], { rules: rules({ budget: { per_day: 1 } }), timezone: BERLIN, now: NOW, actions: [] });
    expect(r).toEqual({ ok: true, results: [{ ok: true, violations: [] }], violations: [] });
  });
});
