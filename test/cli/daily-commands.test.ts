import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// The one-line commands of daily use, against the real daemon: note, cal add with a phrase, today.

const d = useApp();
const kairos = (args: string[], input?: string) => runCliInProcess(args, { env: appCliEnv(d), input });

describe('daily commands', () => {
  it('kairos note TEXT writes one observation; stdin gives one note per line; --task and --type are kept', async () => {
    const one = await kairos(['--json', 'note', 'Slept badly']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).saved).toHaveLength(1);
    const many = await kairos(['note'], 'Coffee at 4pm\nHeadache at night\n\n');
    expect(many.code, many.stderr).toBe(0);
    expect(many.stdout.split('\n').filter((l) => l.startsWith('Noted'))).toHaveLength(2);
    const goal = await kairos(['note', 'Run a marathon in May', '--type', 'goal', '--task', 'marathon']);
    expect(goal.code, goal.stderr).toBe(0);
    const traces = (await d.api('GET', '/memory/pull?limit=100')).json.traces as any[];
    expect(traces.find((t) => t.content === 'Slept badly')).toMatchObject({ type: 'observation', task_id: 'notes' });
    expect(traces.find((t) => t.content === 'Run a marathon in May')).toMatchObject({ type: 'goal', task_id: 'marathon' });
    expect((await kairos(['note', 'x', '--type', 'poem'])).code).toBe(2);
  });

  it('kairos cal add reads a phrase with the planner’s grammar; explicit flags still win', async () => {
    const r = await kairos(['--json', 'cal', 'add', 'dentist next tuesday at 3pm for 1h']);
    expect(r.code, r.stderr).toBe(0);
    const ev = JSON.parse(r.stdout);
    expect(ev).toMatchObject({ title: 'Dentist', duration_minutes: 60 });
    expect(new Date(ev.scheduled_for).getUTCHours()).toBe(15);
    const flags = await kairos(['--json', 'cal', 'add', 'physio friday at 9am', '--for', '30m']);
    expect(flags.code, flags.stderr).toBe(0);
    expect(JSON.parse(flags.stdout).duration_minutes).toBe(30);
    const trip = await kairos(['--json', 'cal', 'add', 'Trip', '--at', '2031-05-12', '--for', '2', 'days']);
    expect(trip.code, trip.stderr).toBe(0);
    expect(JSON.parse(trip.stdout)).toMatchObject({ title: 'Trip', all_day: true, duration_minutes: 2880 });
  });

  it('kairos today lists today’s events, all-day ones marked', async () => {
    const now = new Date();
    const at = new Date(Math.max(now.getTime() + 60_000, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 0)));
    if (at.getUTCDate() !== now.getUTCDate()) return;
    await d.api('POST', '/calendar/create', { body: { title: 'Late call', scheduled_for: at.toISOString(), duration_minutes: 15 } });
    await d.api('POST', '/calendar/create', { body: { title: 'Holiday', scheduled_for: now.toISOString().slice(0, 10), all_day: true } });
    const r = await kairos(['today']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Today, \d{4}-\d{2}-\d{2} \(UTC\)/);
    expect(r.stdout).toContain('Late call');
    expect(r.stdout).toMatch(/all day\s+Holiday/);
  });
});
