import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, KEY, Terminal } from '../helpers/terminal.js';

// `kairos review` driven end to end through a pseudo-terminal (util-linux `script`), as a person would.

const d = useApp();
beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
});

const add = (title: string, at: string, minutes = 30) => ({ kind: 'add_event', title, scheduled_for: at, duration_minutes: minutes });

describe.skipIf(!hasScript)('kairos review in a terminal', () => {
  it('edits with validation, approves and executes, rejects with a reason, skips, quits', async () => {
    const plans: string[] = [];
    for (const actions of [
      [add('Dentist', '2031-01-07T15:00:00Z', 45), add('Pick up prescription', '2031-01-07T17:00:00Z', 15)],
      [add('Gym', '2031-01-08T07:00:00Z', 60)],
      [add('Read', '2031-01-08T21:00:00Z', 30)],
      [add('Call the bank', '2031-01-09T10:00:00Z', 15)],
    ]) {
      const r = await d.api('POST', '/agent/plan', { body: { task_id: 'review', actions } });
      expect(r.status, r.text).toBe(201);
      plans.push(r.json.plan_id);
    }
    // Lunch is blocked: moving an action there is refused at approval, and the review goes on.
    expect((await d.api('POST', '/tempo/adjust', { body: { preferences: { blocked: [{ start: '12:00', end: '13:00', label: 'lunch' }] } } })).status).toBe(200);

    const t = new Terminal(['review'], appCliEnv(d));
    try {
      await t.see('Plan 1 of 4');
      await t.see('Dentist');
      await t.see('What now?');
      // Edit → action 2 → title: an empty title is refused as typed.
      await t.choose(2);
      await t.see('Which action?');
      await t.choose(1);
      await t.see('Edit add_event “Pick up prescription”');
      await t.choose(0);
      await t.see('New title:');
      await t.type(...Array<string>(25).fill(KEY.backspace), KEY.enter);
      await t.see('a title cannot be empty');
      await t.type('Pharmacy run', KEY.enter);
      await t.see('What now?');
      // Edit → action 1 → time: nonsense is refused, then the lunch slot is accepted as typed…
      await t.choose(2);
      await t.see('Which action?');
      await t.choose(0);
      await t.see('Edit add_event “Dentist”');
      await t.choose(1);
      await t.see('New start');
      await t.type(...Array<string>(20).fill(KEY.backspace), 'next week', KEY.enter);
      await t.see('type YYYY-MM-DD HH:MM');
      await t.type(...Array<string>(10).fill(KEY.backspace), '2031-01-07 12:15', KEY.enter);
      await t.see('What now?');
      // …but approving it breaks the blocked slot: the error is shown and the plan stays open.
      await t.choose(0);
      await t.see('blocked');
      await t.see('What now?');
      await t.choose(2);
      await t.see('Which action?');
      await t.choose(0);
      await t.see('Edit add_event “Dentist”');
      await t.choose(1);
      await t.see('New start');
      await t.type(...Array<string>(20).fill(KEY.backspace), '16:00', KEY.enter);
      await t.see('What now?');
      // Duration: validated as typed, then 1h.
      await t.choose(2);
      await t.see('Which action?');
      await t.choose(0);
      await t.see('Edit add_event “Dentist”');
      await t.choose(2);
      await t.see('New duration');
      await t.type(KEY.backspace, KEY.backspace, '0', KEY.enter);
      await t.see('at least 1 minute');
      await t.type(KEY.backspace, '1h', KEY.enter);
      await t.see('Approve with my edits and execute');
      await t.choose(0);
      await t.see('Approved and executed');
      // Plan 2: reject with a reason.
      await t.see('Plan 2 of 4');
      await t.see('What now?');
      await t.choose(3);
      await t.see('Why?');
      await t.type('too early for the gym', KEY.enter);
      await t.see('Rejected');
      // Plan 3: skip. Plan 4: quit.
      await t.see('Plan 3 of 4');
      await t.see('What now?');
      await t.choose(4);
      await t.see('Plan 4 of 4');
      await t.see('What now?');
      await t.choose(5);
      await t.see('Reviewed: 1 approved, 1 rejected, 1 skipped.');
      expect(await t.exited).toBe(0);
    } catch (e) {
      t.kill();
      throw e;
    }

    const get = async (id: string) => (await d.api('GET', `/agent/plans/${id}`)).json;
    const first = await get(plans[0]!);
    expect(first).toMatchObject({ status: 'executed', edited: true });
    expect(first.actions.map((a: any) => [a.title, a.scheduled_for, a.duration_minutes])).toEqual([
      ['Dentist', '2031-01-07T16:00:00.000Z', 60],
      ['Pharmacy run', '2031-01-07T17:00:00.000Z', 15],
    ]);
    const events = (await d.api('GET', '/calendar/events?start=2031-01-07T00:00:00Z&end=2031-01-08T00:00:00Z')).json.events;
    expect(events.map((e: any) => [e.title, e.scheduled_for, e.duration_minutes])).toEqual([
      ['Dentist', '2031-01-07T16:00:00.000Z', 60],
      ['Pharmacy run', '2031-01-07T17:00:00.000Z', 15],
    ]);
    expect(await get(plans[1]!)).toMatchObject({ status: 'rejected', reason: 'too early for the gym' });
    expect((await get(plans[2]!)).status).toBe('proposed');
    expect((await get(plans[3]!)).status).toBe('proposed');
  });

  it('with nothing to review it says so', async () => {
    const t = new Terminal(['review', '--task', 'nothing-here'], appCliEnv(d));
    await t.see('Nothing to review');
    expect(await t.exited).toBe(0);
  });
});
