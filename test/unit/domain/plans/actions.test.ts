import { describe, expect, it } from 'vitest';
import { localInput, parseDuration, parseTime, parseTitle } from '../../../../src/cli/input/edit-values.js';
import { ActionList, MAX_ACTIONS, PlanRequest } from '../../../../src/contracts/plans.js';
import { applyEdits } from '../../../../src/domain/plans/actions.js';
import { biasKey, learn, observe } from '../../../../src/domain/plans/biases.js';
import type { StoredAction } from '../../../../src/domain/plans/plan.js';
import { fingerprint } from '../../../../src/domain/plans/produced.js';

const codes = (r: ReturnType<typeof ActionList.safeParse>) =>
  r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), (i as { params?: { code?: string } }).params?.code]);

describe('ActionList: structural problems are plan_invalid', () => {
  it('accepts the three kinds with their required fields', () => {
    const r = ActionList.safeParse([
      { kind: 'add_event', title: 'A', scheduled_for: '2031-01-01T10:00:00+02:00', duration_minutes: 30 },
      { kind: 'reschedule_event', event_uid: 'ev_1', scheduled_for: '2031-01-01T10:00:00Z' },
      { kind: 'reflect', content: 'thought' },
    ]);
    expect(r.success).toBe(true);
  });

  it('codes every issue plan_invalid, except a bad tag (invalid_tempo_tag)', () => {
    const r = ActionList.safeParse([
      { kind: 'nap' },
      'not an object',
      { kind: 'add_event', title: 'A', scheduled_for: 'tomorrow', duration_minutes: 30, tempo_tag: 'Loud!' },
    ]);
    expect(codes(r)).toEqual([
      ['0.kind', 'plan_invalid'],
      ['1', 'plan_invalid'],
      ['2.scheduled_for', 'plan_invalid'],
      ['2.tempo_tag', 'invalid_tempo_tag'],
    ]);
  });

  it('refuses an empty list and more than the maximum', () => {
    expect(codes(ActionList.safeParse([]))).toEqual([['', 'plan_invalid']]);
    const many = Array.from({ length: MAX_ACTIONS + 1 }, () => ({ kind: 'reflect', content: 'x' }));
    expect(codes(ActionList.safeParse(many))).toEqual([['', 'plan_invalid']]);
    expect(ActionList.safeParse(many.slice(1)).success).toBe(true);
  });

  it('an add_event lasts at least a minute; a duration tag stands in for the duration', () => {
    expect(codes(ActionList.safeParse([{ kind: 'add_event', title: 'A', scheduled_for: '2031-01-01T10:00:00Z', duration_minutes: 0 }]))).toEqual([
      ['0.duration_minutes', 'plan_invalid'],
    ]);
    expect(ActionList.safeParse([{ kind: 'add_event', title: 'A', scheduled_for: '2031-01-01T10:00:00Z', tempo_tag: '1h30m' }]).success).toBe(true);
    expect(ActionList.safeParse([{ kind: 'add_event', title: 'A', scheduled_for: '2031-01-01T10:00:00Z', tempo_tag: '@morning' }]).success).toBe(false);
  });

  it('a plan request needs a prompt or actions', () => {
    expect(PlanRequest.safeParse({}).success).toBe(false);
    expect(PlanRequest.safeParse({ prompt: 'x' }).success).toBe(true);
  });
});

const action = (over: Partial<StoredAction> = {}): StoredAction => ({
  action_id: 'ac_1',
  kind: 'add_event',
  task_id: 't',
  title: 'Team meeting',
  scheduled_for: '2031-01-01T10:00:00.000Z',
  duration_minutes: 60,
  estimate_minutes: 60,
  reasoning: '',
  confidence: 1,
  status: 'proposed',
  ...over,
});

describe('applyEdits', () => {
  it('applies edits, keeps the proposal in original, reports moved actions', () => {
    const r = applyEdits(
      [action(), action({ action_id: 'ac_2', title: 'Other' })],
      [
        { action_id: 'ac_1', duration_minutes: 90, title: 'Long meeting' },
        { action_id: 'ac_2', title: 'Renamed' },
      ],
    );
    expect(r.actions[0]).toMatchObject({
      title: 'Long meeting',
      duration_minutes: 90,
      edited: true,
      original: { title: 'Team meeting', duration_minutes: 60 },
    });
    expect(r.actions[1]).toMatchObject({ title: 'Renamed', edited: true });
    expect(r.changed).toEqual([0]);
  });

  it('an edit to the same values is no edit', () => {
    const r = applyEdits([action()], [{ action_id: 'ac_1', title: 'Team meeting' }]);
    expect(r.actions[0]!.edited).toBeUndefined();
  });

  it.each([
    [[{ action_id: 'ac_9', title: 'x' }], 'actions.0.action_id'],
    [
      [
        { action_id: 'ac_1', title: 'x' },
        { action_id: 'ac_1', title: 'y' },
      ],
      'actions.1.action_id',
    ],
    [[{ action_id: 'ac_1', content: 'x' }], 'actions.0.content'],
    [[{ action_id: 'ac_1', status: 'rejected' as const }], 'actions'],
  ])('refuses %o (422 at %s)', (edits, path) => {
    try {
      applyEdits([action()], edits);
      expect.unreachable();
    } catch (e) {
      expect((e as { status: number }).status).toBe(422);
      expect((e as { details: { path: string }[] }).details.map((d) => d.path)).toContain(path);
    }
  });
});

describe('duration biases', () => {
  it('keys by @label tag, else by the normalized title; duration tags do not key', () => {
    expect(biasKey({ title: 'Whatever', tempo_tag: '@deep-work' })).toBe('@deep-work');
    expect(biasKey({ title: '  Team   Meeting ', tempo_tag: '25m' })).toBe('team meeting');
  });

  it('moves halfway towards actual / estimate, clamped, skipping minute biases and no-ops', () => {
    const o = observe(action(), 90)!;
    expect(o).toEqual({ key: 'team meeting', actual: 90, estimate: 60 });
    expect(learn({}, [o])).toEqual({ 'team meeting': 1.25 });
    expect(learn({ 'team meeting': 1.5 }, [o])).toEqual({});
    expect(learn({ 'team meeting': { minutes: 10 } }, [o])).toEqual({});
    expect(learn({}, [o, o])).toEqual({ 'team meeting': 1.38 });
    expect(learn({}, [{ key: 'x', actual: 6000, estimate: 1 }])).toEqual({ x: 5.5 });
    expect(learn({ x: 9 }, [{ key: 'x', actual: 6000, estimate: 1 }])).toEqual({ x: 9.5 });
    expect(learn({}, [{ key: 'x', actual: 1, estimate: 6000 }])).toEqual({ x: 0.55 });
    expect(observe(action({ kind: 'reflect' }), 30)).toBeUndefined();
    expect(observe(action({ estimate_minutes: 0 }), 30)).toBeUndefined();
  });
});

describe('fingerprint', () => {
  it('ignores bookkeeping and feedback, sees substance', () => {
    const t = { uid: 'tr_1', content: 'a', version: 1, updated_at: 'x', fields: { b: 1, a: 2 } };
    expect(fingerprint({ ...t, version: 2, updated_at: 'y', feedback_rating: 5, notes: 'n' })).toBe(fingerprint(t));
    expect(fingerprint({ ...t, fields: { a: 2, b: 1 } })).toBe(fingerprint(t));
    expect(fingerprint({ ...t, content: 'b' })).not.toBe(fingerprint(t));
  });
});

describe('review input', () => {
  it('reads times, durations and titles as typed', () => {
    // Wall times are the profile's (Berlin, UTC+1 in January), whatever the process's TZ.
    const tz = 'Europe/Berlin';
    const base = '2031-01-07T14:00:00.000Z';
    expect(parseTime('16:30', base, tz)).toEqual({ ok: '2031-01-07T15:30:00.000Z' });
    expect(parseTime('00:30', '2031-01-07T23:30:00.000Z', tz)).toEqual({ ok: '2031-01-07T23:30:00.000Z' });
    expect(parseTime('2031-01-08 09:15', base, tz)).toEqual({ ok: '2031-01-08T08:15:00.000Z' });
    expect(parseTime('2031-01-08T09:15:00Z', base, tz)).toEqual({ ok: '2031-01-08T09:15:00.000Z' });
    expect(parseTime('2031-01-08T09:15', base, tz)).toEqual({ ok: '2031-01-08T08:15:00.000Z' });
    expect(localInput('2031-01-07T23:30:00.000Z', tz)).toBe('2031-01-08 00:30');
    for (const bad of ['25:00', '2031-02-30 10:00', 'tomorrow', '2031-01-08T09:15+5']) expect(parseTime(bad, base, tz)).toHaveProperty('error');
    expect(parseDuration('45')).toEqual({ ok: 45 });
    expect(parseDuration('1h30m')).toEqual({ ok: 90 });
    expect(parseDuration('2h')).toEqual({ ok: 120 });
    for (const bad of ['', '0', 'soon', '-5']) expect(parseDuration(bad)).toHaveProperty('error');
    expect(parseTitle('  Dentist ')).toEqual({ ok: 'Dentist' });
    expect(parseTitle('   ')).toHaveProperty('error');
  });
});
