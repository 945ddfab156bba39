import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

const cli = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });

describe('kairos plan', () => {
  it('--preview shows each action with its reason and queues nothing', async () => {
    const r = await cli(['plan', '--preview', 'Dentist on 2031-01-07 at 3pm for 45 minutes and gym on 2031-01-08 at 7am']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Proposed 2 actions');
    expect(r.stdout).toMatch(/1\. +add +“Dentist” {2}Tue 2031-01-07 15:00–15:45 {2}45 min/);
    expect(r.stdout).toContain('why: Explicit time: "2031-01-07 at 3pm" → Tue 2031-01-07 15:00 (UTC); 45 min as stated.');
    expect(r.stdout).toMatch(/2\. +add +“Gym” {2}Wed 2031-01-08 07:00–08:00/);
    const q = await d.api('GET', '/agent/queue?status=all');
    expect(q.json.plans).toEqual([]);
  });

  it('plan → approve: --yes approves and executes, the event is on the calendar', async () => {
    const r = await cli(['plan', '--yes', '--task', 'teeth', 'Dentist', 'on', '2031-01-07', 'at', '3pm', 'for', '45', 'minutes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pl_\w+ {2}proposed {2}by the default planner {2}task teeth/);
    expect(r.stdout).toMatch(/✔ Approved and executed pl_\w+/);
    expect(r.stdout).toMatch(/\+ event “Dentist” .*\(45 min\)/);
    const ev = await d.api('GET', '/calendar/events?start=2031-01-07T00:00:00Z&end=2031-01-08T00:00:00Z');
    expect(ev.json.events).toEqual([
      expect.objectContaining({ title: 'Dentist', scheduled_for: '2031-01-07T15:00:00.000Z', duration_minutes: 45, task_id: 'teeth' }),
    ]);
    const q = await d.api('GET', '/agent/queue?status=executed');
    expect(q.json.plans).toEqual([expect.objectContaining({ task_id: 'teeth', provider: 'default' })]);
  });

  it('without a terminal the plan waits in the queue and the next commands are named; --json prints the plan', async () => {
    const r = await cli(['plan', 'Haircut on 2031-01-09 at 10:30']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('“Haircut”');
    expect(r.stderr).toMatch(/Plan pl_\w+ is waiting in the queue\. Approve and execute: kairos approve pl_\w+/);
    const j = await cli(['--json', 'plan', 'Gym on 2031-01-10 at 7am']);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({
      status: 'proposed',
      actions: [expect.objectContaining({ title: 'Gym', scheduled_for: '2031-01-10T07:00:00.000Z' })],
    });
    const y = await cli(['--json', 'plan', '--yes', '--no-execute', 'Run on 2031-01-11 at 8am']);
    expect(JSON.parse(y.stdout)).toMatchObject({ status: 'approved' });
  });

  it('nothing to schedule exits 6 and says why; no prompt is a usage error', async () => {
    const r = await cli(['plan', 'hello there, how are you?']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/Nothing to schedule/);
    expect((await cli(['plan'])).code).toBe(2);
  });
});

describe('kairos chat', () => {
  it('a scheduling prompt: the reply and the plan, approved with --yes', async () => {
    const r = await cli(['chat', '--yes', 'Yoga on 2031-01-12 at 6pm for an hour']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Proposed 1 action: add "Yoga" Sun 2031-01-12 18:00–19:00\. Plan pl_\w+ is waiting for your approval\./);
    expect(r.stdout).toMatch(/✔ Approved and executed/);
  });

  it('a note is proposed, not saved; --json prints the reply object', async () => {
    const r = await cli(['chat', 'note: the new desk chair helps my back']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('This reads as a note; nothing is saved until you push it.');
    expect(r.stdout).toContain('observation  desk-chair  “The new desk chair helps my back”');
    const j = await cli(['--json', 'chat', 'what did I say about the desk chair?']);
    expect(JSON.parse(j.stdout)).toMatchObject({ intent: 'question', sources: [] });
  });
});
