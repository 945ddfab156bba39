import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { BIN, cleanEnv, cliEnv, removeHome, runCli, startDaemon } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
let env: Record<string, string | undefined>;

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
  env = appCliEnv(d, { TZ: 'UTC' });
});

const add = (title: string, at: string, minutes = 30) => ({ kind: 'add_event', title, scheduled_for: at, duration_minutes: minutes });

async function propose(actions: unknown[], task_id = 'cli') {
  const r = await d.api('POST', '/agent/plan', { body: { task_id, reasoning: 'because', actions } });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

const kairos = (args: string[], input?: string) => runCliInProcess(args, { env, input });
/** The installed bin against the same app: one call of each command end to end (and the terminal's TZ, which only a process has). */
const spawned = (args: string[], input?: string) => runCli(args, { env, input });

describe('kairos queue', () => {
  it('lists proposed plans readably, and as the API JSON with --json', async () => {
    const p = await propose(
      [add('Dentist', '2031-01-07T15:00:00Z', 45), { kind: 'reflect', content: 'Floss more', scheduled_for: '2031-01-07T16:00:00Z' }],
      'teeth',
    );
    const r = await kairos(['queue']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(p.plan_id);
    expect(r.stdout).toContain('task teeth');
    expect(r.stdout).toMatch(/1\. add_event\s+“Dentist”\s+tue 2031-01-07 15:00–15:45\s+45 min/);
    expect(r.stdout).toMatch(/2\. reflect\s+“Floss more”/);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    // Compact by default: the header and one line per action; the reasoning only with --verbose.
    const mine = r.stdout.split('\n').slice(r.stdout.split('\n').findIndex((l) => l.includes(p.plan_id)));
    expect(mine.slice(0, 3).map((l) => l.trim().slice(0, 2))).toEqual([p.plan_id.slice(0, 2), '1.', '2.']);
    expect(r.stdout).not.toMatch(/why: |prompt: /);
    const v = await kairos(['queue', '--verbose', '--task', 'teeth']);
    expect(v.stdout.split('\n').length).toBeGreaterThan(mine.filter(Boolean).length);
    const j = await kairos(['queue', '--json', '--task', 'teeth']);
    expect(JSON.parse(j.stdout).plans.map((x: any) => x.plan_id)).toEqual([p.plan_id]);
  });

  it("shows times in the user's zone, not the terminal's", async () => {
    await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'Asia/Tokyo' } } });
    try {
      await propose([add('Tokyo call', '2031-01-09T23:30:00Z', 30)], 'zones');
      const r = await runCli(['queue', '--task', 'zones'], { env: { ...env, TZ: 'America/New_York' } });
      expect(r.stdout).toMatch(/“Tokyo call”\s+fri 2031-01-10 08:30–09:00/);
    } finally {
      await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'UTC' } } });
    }
  });

  it('filters by status; an unknown status is a usage error (exit 2)', async () => {
    const r = await kairos(['queue', '--status', 'edited']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('No edited plans.');
    const bad = await kairos(['queue', '--status', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status');
  });
});

describe('kairos approve / reject / execute', () => {
  it('approve executes by default and shows what it created', async () => {
    const p = await propose([add('Haircut', '2031-01-08T16:00:00Z', 30)]);
    const r = await kairos(['approve', p.plan_id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Approved and executed ${p.plan_id}`);
    expect(r.stdout).toMatch(/\+ event “Haircut”\s+wed 2031-01-08 16:00–16:30 \(30 min\)\s+ev_/);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('executed');
  });

  it('approve --no-execute, then execute --simulate shows a diff and changes nothing, then execute', async () => {
    const ev = await d.api('POST', '/calendar/create', { body: { title: 'Standup', scheduled_for: '2031-01-09T09:00:00Z', duration_minutes: 15 } });
    const p = await propose(
      [{ kind: 'reschedule_event', event_uid: ev.json.uid, scheduled_for: '2031-01-09T09:30:00Z' }, add('Retro', '2031-01-09T14:00:00Z', 45)],
      'sprint',
    );
    const a = await kairos(['approve', p.plan_id, '--no-execute']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain(`Approved ${p.plan_id} (execute it with: kairos execute ${p.plan_id})`);

    const sim = await kairos(['execute', p.plan_id, '--simulate']);
    expect(sim.code, sim.stderr).toBe(0);
    expect(sim.stdout).toContain('Simulation: nothing was changed.');
    expect(sim.stdout).toContain(`~ event “Standup”  ${ev.json.uid}`);
    expect(sim.stdout).toContain('- thu 2031-01-09 09:00–09:15 (15 min)');
    expect(sim.stdout).toContain('+ thu 2031-01-09 09:30–09:45 (15 min)');
    expect(sim.stdout).toMatch(/\+ event “Retro”/);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json.status).toBe('approved');

    const ex = await spawned(['execute', 'sprint', '--json']);
    expect(ex.code, ex.stderr).toBe(0);
    const out = JSON.parse(ex.stdout);
    expect(out.simulated).toBe(false);
    expect(out.plans.map((x: any) => x.status)).toEqual(['executed']);
  });

  it('reject keeps the reason', async () => {
    const p = await propose([add('Gym', '2031-01-10T07:00:00Z', 60)]);
    const r = await spawned(['reject', p.plan_id, '--reason', 'too early']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`Rejected ${p.plan_id}: too early`);
    expect((await d.api('GET', `/agent/plans/${p.plan_id}`)).json).toMatchObject({ status: 'rejected', reason: 'too early' });
  });

  it('refusals map to exit codes: 6 illegal transition, 5 unknown plan, 4 forbidden', async () => {
    const p = await propose([add('Twice', '2031-01-11T10:00:00Z')]);
    await kairos(['reject', p.plan_id]);
    const again = await kairos(['approve', p.plan_id]);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('rejected');
    expect((await kairos(['reject', 'pl_nope'])).code).toBe(5);
    const key = (await d.api('POST', '/auth/keys', { body: { name: 'bot', agent_id: 'bot', scopes: ['agent:plan'] } })).json.key;
    const q = await propose([add('Bot', '2031-01-11T11:00:00Z')]);
    const denied = await runCli(['approve', q.plan_id], { env: { ...env, KAIROS_API_KEY: key } });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain('agent:approve');
  });

  it('approve of several plans goes on past a refused one and exits with its code', async () => {
    const a = await propose([add('One', '2031-01-12T10:00:00Z')]);
    const b = await propose([add('Two', '2031-01-12T11:00:00Z')]);
    await kairos(['reject', a.plan_id]);
    const r = await kairos(['approve', a.plan_id, b.plan_id, '--no-execute']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(a.plan_id);
    expect(r.stdout).toContain(`Approved ${b.plan_id}`);
    expect((await d.api('GET', `/agent/plans/${b.plan_id}`)).json.status).toBe('approved');
  });
});

describe('kairos feedback', () => {
  it('rates a plan and teaches a duration', async () => {
    const p = await propose([add('Team meeting', '2031-01-13T10:00:00Z', 60)]);
    await kairos(['approve', p.plan_id]);
    const r = await spawned(['feedback', p.plan_id, '--rating', '2', '--duration', '90', '--comment', 'meetings run long']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Feedback logged on agent_plan');
    expect(r.stdout).toContain('rating 2/5');
    expect(r.stdout).toContain('notes  meetings run long');
    expect((await d.api('GET', '/tempo/profile')).json.duration_biases['team meeting']).toBe(1.25);
  });

  it('needs something to say; a rating over 5 is a usage error', async () => {
    expect((await kairos(['feedback', 'tr_x'])).code).toBe(2);
    expect((await kairos(['feedback', 'tr_x', '--rating', '9'])).code).toBe(2);
    expect((await kairos(['feedback', 'tr_nope', '--rating', '3'])).code).toBe(5);
  });
});

describe('kairos review without a terminal', () => {
  it('refuses with exit 2 and names the non-interactive commands', async () => {
    const r = await kairos(['review']);
    expect(r.code).toBe(2);
    for (const cmd of ['kairos queue', 'kairos approve', 'kairos reject', 'kairos execute']) expect(r.stderr).toContain(cmd);
  });
});

describe('kairos watch', () => {
  /** Start `kairos watch`, and make sure it is connected by sending warm-up traces until one shows. */
  async function watching(args: string[]) {
    const child = spawn(process.execPath, [BIN, 'watch', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const io = { out: '', err: '' };
    child.stdout.on('data', (c) => (io.out += c));
    child.stderr.on('data', (c) => (io.err += c));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    for (let i = 0; !io.out.includes('warm-up'); i++) {
      if (i > 100) throw new Error(`watch never connected: ${io.err}`);
      await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'warm', content: 'warm-up' }] } });
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 200));
    const mark = io.out.length;
    return { child, io, exited, since: () => io.out.slice(mark) };
  }

  it('prints live events, one JSON object a line with --json; Ctrl-C ends it with exit 0', async () => {
    const w = await watching(['--json', '--topics', 'plans,traces']);
    const p = await propose([add('Watched', '2031-01-14T10:00:00Z')], 'watch');
    await d.api('POST', '/calendar/create', { body: { title: 'Not on these topics', scheduled_for: '2031-01-14T12:00:00Z', duration_minutes: 10 } });
    await d.api('POST', '/agent/reject', { body: { plan_id: p.plan_id } });
    for (let i = 0; w.since().trim().split('\n').length < 5 && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    w.child.kill('SIGINT');
    expect(await w.exited, w.io.err).toBe(0);
    const lines = w
      .since()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((m) => `${m.type} ${m.data.type ?? ''}`.trim())).toEqual([
      'trace.created agent_plan',
      'plan.proposed',
      // The calendar's own record trace is on the traces topic; its event.created is not.
      'trace.created calendar_event',
      'trace.created transition',
      'plan.rejected',
    ]);
    expect(lines[1].data.plan_id).toBe(p.plan_id);
    for (const m of lines) expect(Object.keys(m).sort()).toEqual(['at', 'data', 'id', 'type']);
  });

  it('readable lines without --json; a bad topic is a usage error', async () => {
    const w = await watching([]);
    const p = await propose([add('Readable', '2031-01-15T10:00:00Z')], 'watch');
    for (let i = 0; !w.since().includes('plan.proposed') && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    w.child.kill('SIGINT');
    expect(await w.exited, w.io.err).toBe(0);
    expect(w.since()).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d  trace\\.created\\s+tr_\\w+  agent_plan  .*\\n\\d\\d:\\d\\d  plan\\.proposed\\s+${p.plan_id}  task watch  1 action\\(s\\)\\n$`,
      ),
    );
    expect((await kairos(['watch', '--topics', 'gossip'])).code).toBe(2);
  });

  it('--count N stops after exactly N events', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', '--json', '--count', '2', '--topics', 'plans'], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    let code: number | null | undefined;
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r((code = c))));
    for (let i = 0; code === undefined && i < 100; i++) {
      await propose([add(`Count ${i}`, '2031-01-16T10:00:00Z')], 'count');
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(await exited).toBe(0);
    expect(
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toEqual(['plan.proposed', 'plan.proposed']);
  });

  it('a bad key → exit 4', async () => {
    const r = await runCliInProcess(['watch', '--count', '1'], { env: { ...env, KAIROS_API_KEY: 'kairos_sk_nope' } });
    expect(r.code).toBe(4);
  });
});

describe('kairos watch when the daemon goes away', () => {
  it('exits 3 (unreachable)', async () => {
    const other = await startDaemon();
    try {
      const child = spawn(process.execPath, [BIN, 'watch'], { env: cleanEnv(cliEnv(other)), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      for (let i = 0; !out.includes('ready') && i < 100; i++) {
        await other.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'w', content: 'ready' }] } });
        await new Promise((r) => setTimeout(r, 100));
      }
      await other.stop();
      expect(await exited).toBe(3);
      expect(err).toMatch(/closed the stream/);
    } finally {
      await other.stop();
      removeHome(other.home);
    }
  });
});
