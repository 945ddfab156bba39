import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// Issue 19: any unique prefix of a plan, trace, event or key id, as git takes a short hash.
const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const plans: string[] = [];

/** The shortest prefix of `id` that no other id in `all` starts with. */
const unique = (id: string, all: string[]) => {
  for (let n = id.indexOf('_') + 2; ; n++) if (all.filter((x) => x.startsWith(id.slice(0, n))).length === 1) return id.slice(0, n);
};
const common = (a: string, b: string) => {
  let n = 0;
  while (a[n] === b[n]) n++;
  return a.slice(0, n);
};

beforeAll(async () => {
  for (const title of ['Swim', 'Cycle']) {
    const r = await d.api('POST', '/agent/plan', {
      body: { task_id: 'short-ids', actions: [{ kind: 'add_event', title, scheduled_for: '2031-05-05T07:00:00Z', duration_minutes: 30 }] },
    });
    expect(r.status, r.text).toBe(201);
    plans.push(r.json.plan_id);
  }
});

describe('short ids', () => {
  it('a prefix of two plans is ambiguous: exit 2, both listed; a unique prefix works (with or without pl_)', async () => {
    const both = common(plans[0]!, plans[1]!);
    const amb = await kairos(['reject', both, '--reason', 'x']);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain('give more of it');
    for (const p of plans) expect(amb.stderr).toContain(p);
    const short = unique(plans[1]!, plans);
    const r = await kairos(['--json', 'reject', short.slice('pl_'.length), '--reason', 'not today']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ plan_id: plans[1], status: 'rejected' });
  });

  it('traces, events and keys by prefix; a prefix of nothing is not found (exit 5)', async () => {
    const push = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'goal', task_id: 'short-ids', content: 'Swim 2 km' }] } });
    const uid: string = push.json.saved[0].uid;
    // The reject above wrote a transition trace in the same few milliseconds: a fixed-length
    // prefix can be shared by both (CI saw it), so take the shortest one that is unique.
    const traces = (await d.api('GET', '/memory/pull?limit=100')).json.traces.map((t: { uid: string }) => t.uid);
    const shown = await kairos(['--json', 'trace', 'show', unique(uid, traces)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).uid).toBe(uid);

    const ev = (await d.api('POST', '/calendar/create', { body: { title: 'Pool', scheduled_for: '2031-05-06T07:00:00Z', duration_minutes: 45 } })).json;
    const edited = await kairos(['--json', 'cal', 'edit', ev.uid.slice(0, 14), '--title', 'Pool (lanes)']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ uid: ev.uid, title: 'Pool (lanes)' });

    const key = (await d.api('POST', '/auth/keys', { body: { name: 'short', scopes: ['memory:read'] } })).json;
    const keys = (await d.api('GET', '/auth/keys')).json.keys.map((k: { id: string }) => k.id);
    const revoked = await kairos(['--json', 'keys', 'revoke', unique(key.id, keys), '--yes']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked).toBe(key.id);

    expect((await kairos(['trace', 'show', 'tr_zzzz'])).code).toBe(5);
  });
});

describe('short ids for feedback', () => {
  it('feedback takes a unique prefix of a trace uid', async () => {
    const pushed = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'short-fb', content: 'Ran 5 km' }] } });
    const uid: string = pushed.json.saved[0].uid;
    const r = await kairos(['--json', 'feedback', uid.slice(0, 3 + 12), '--rating', '4']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ uid, feedback_rating: 4 });
  });
});
