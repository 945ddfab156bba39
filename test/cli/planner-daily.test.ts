import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';

// The planner as a person lives with it, through `kairos plan` against the real daemon. Times are
// read in the profile's zone (Berlin); the dates depend on today, so the checks are on weekdays
// and wall times.

const d = useDaemon();
const TZ = 'Europe/Berlin';
const kairos = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: cliEnv(d, { TZ: 'UTC', ...env }) });
const local = (iso: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: TZ, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.weekday!.toLowerCase()} ${p.hour}:${p.minute}`;
};
const plan = async (prompt: string, env: Record<string, string> = {}) => {
  const r = await kairos(['--json', 'plan', prompt], env);
  return { ...r, plan: r.code === 0 ? JSON.parse(r.stdout) : undefined };
};

beforeAll(async () => {
  const r = await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: TZ } } });
  expect(r.status, r.text).toBe(200);
});

describe('kairos plan', () => {
  it('several named days in one request: one action each', async () => {
    for (const prompt of ['plan my week: gym monday and thursday at 7am', 'gym monday at 7am and thursday at 7am']) {
      const r = await plan(prompt);
      expect(r.code, r.stderr).toBe(0);
      expect(r.plan.actions.map((a: any) => [a.title, local(a.scheduled_for)]).sort()).toEqual([
        ['Gym', 'mon 07:00'],
        ['Gym', 'thu 07:00'],
      ]);
      await d.api('POST', '/agent/reject', { body: { plan_id: r.plan.plan_id } });
    }
  });

  it('an all-day event does not fill the day', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv-SE', { timeZone: TZ });
    const ev = await d.api('POST', '/calendar/create', { body: { title: 'Public holiday', scheduled_for: tomorrow, all_day: true, duration_minutes: 1440 } });
    expect(ev.status, ev.text).toBe(201);
    const r = await plan('read for 30 minutes tomorrow morning');
    expect(r.code, r.stderr).toBe(0);
    const [a] = r.plan.actions;
    expect(new Date(a.scheduled_for).toLocaleDateString('sv-SE', { timeZone: TZ })).toBe(tomorrow);
    expect(local(a.scheduled_for).slice(4)).toBe('06:00');
    expect(a.reasoning).not.toContain('full');
    await d.api('POST', '/agent/reject', { body: { plan_id: r.plan.plan_id } });
    const at = await plan('call grandma tomorrow at 10am');
    expect(at.code, at.stderr).toBe(0);
    expect(at.plan.actions[0].conflicts ?? []).toEqual([]);
    await d.api('POST', '/agent/reject', { body: { plan_id: at.plan.plan_id } });
  });

  it('a rejection’s reason constrains the task’s next proposals (time of day, weekday)', async () => {
    const first = await plan('stretch sunday morning');
    expect(first.code, first.stderr).toBe(0);
    expect(local(first.plan.actions[0].scheduled_for)).toBe('sun 06:00');
    expect((await kairos(['reject', first.plan.plan_id, '--reason', 'not at 6am, too early'])).code).toBe(0);
    const again = await plan('stretch sunday morning');
    expect(again.code, again.stderr).toBe(0);
    expect(local(again.plan.actions[0].scheduled_for)).toBe('sun 07:00');
    expect(again.plan.actions[0].reasoning).toContain('not at 6am, too early');

    const week = await plan('stretch next week');
    expect(week.code, week.stderr).toBe(0);
    const day = local(week.plan.actions[0].scheduled_for).slice(0, 3);
    expect((await kairos(['reject', week.plan.plan_id, '--reason', `not on a ${day}`])).code).toBe(0);
    const other = await plan('stretch next week');
    expect(other.code, other.stderr).toBe(0);
    expect(local(other.plan.actions[0].scheduled_for).slice(0, 3)).not.toBe(day);
  });

  it('a proposal that repeats an event at a nearby time says so and is not added twice', async () => {
    const made = await kairos(['--json', 'plan', 'dentist friday at 3pm', '--yes']);
    expect(made.code, made.stderr).toBe(0);
    const again = await kairos(['plan', 'dentist friday at 3:30pm']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/Dentist.* already on your calendar/);
    const events = (await d.api('GET', '/calendar/events?expand=false')).json.events;
    expect(events.filter((e: any) => e.title === 'Dentist')).toHaveLength(1);
  });

  it('blocked time: a warning in the person’s own plan, a refusal for an agent', async () => {
    const adj = await d.api('POST', '/tempo/adjust', { body: { preferences: { blocked: [{ start: '12:00', end: '13:00', label: 'lunch' }] } } });
    expect(adj.status, adj.text).toBe(200);
    const mine = await plan('call the bank tomorrow at 12:15');
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.plan.actions[0].warnings.join(' ')).toMatch(/blocked/);
    const key = await d.api('POST', '/auth/keys', { body: { name: 'bot', scopes: ['agent:plan'], agent_id: 'bank-bot' } });
    expect(key.status, key.text).toBe(201);
    const agent = await plan('call the bank tomorrow at 12:20', { KAIROS_API_KEY: key.json.key });
    expect(agent.code).toBe(6);
    expect(agent.stderr).toMatch(/blocked/);
  });
});
