import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliDeps } from '../../src/cli/command-runtime.js';
import { runChat } from '../../src/cli/commands/chat/chat.js';
import { runPlan } from '../../src/cli/commands/plan/plan.js';
import type { Prompter } from '../../src/cli/input/prompter.js';
import { IO } from '../../src/cli/output/io.js';
import type { ApiClient } from '../../src/client/http.js';
import type { Plan } from '../../src/contracts/plans.js';
import { AppError } from '../../src/errors.js';

/**
 * The terminal path of `kairos plan` / `kairos chat`: a proposed plan is approved, edited or
 * rejected at once. Run in-process with a TTY-like IO, a scripted prompter and a fake client.
 */

const PLAN: Plan = {
  plan_id: 'pl_1',
  user_id: 'usr_1',
  task_id: 'dentist',
  status: 'proposed',
  prompt: 'Dentist next Tuesday at 3pm',
  agent_id: null,
  created_at: '2031-01-01T09:00:00.000Z',
  updated_at: '2031-01-01T09:00:00.000Z',
  edited: false,
  reasoning: 'Default planner, 1 action.',
  actions: [
    {
      action_id: 'ac_1',
      kind: 'add_event',
      task_id: 'dentist',
      title: 'Dentist',
      scheduled_for: '2031-01-07T15:00:00.000Z',
      duration_minutes: 45,
      estimate_minutes: 45,
      reasoning: 'Explicit time',
      confidence: 0.9,
      status: 'proposed',
    },
  ],
  trace_uid: 'tr_1',
  provider: 'default',
  model: null,
};

function setup(answers: string[], failFirstApprove = false) {
  const out = Object.assign(new PassThrough(), { isTTY: true });
  const err = Object.assign(new PassThrough(), { isTTY: true });
  const input = Object.assign(new PassThrough(), { isTTY: true });
  let stdout = '';
  out.on('data', (c) => (stdout += c));
  const streams = { stdout: out, stderr: err, stdin: input };
  const calls: { method: string; path: string; body?: any }[] = [];
  let approvals = 0;
  const client = {
    async call(endpoint: string, o: { body?: any } = {}) {
      const [method, path] = endpoint.split(' ') as [string, string];
      calls.push({ method, path, body: o.body });
      if (path === '/agent/plan') return PLAN;
      if (path === '/chat/respond') return { reply: 'Proposed 1 action.', intent: 'plan', commands: [], proposed_traces: [], plan: PLAN };
      if (path === '/agent/approve') {
        if (failFirstApprove && approvals++ === 0)
          throw new AppError(422, 'constraint_violation', 'The plan breaks your constraints.', {
            details: [{ path: 'actions.0.scheduled_for', message: 'blocked (lunch)' }],
          });
        if (!o.body.execute) return { ...PLAN, status: 'approved' };
        const done = { ...PLAN, status: 'executed' };
        return { ...done, execution: { plans: [done], log: [], results: [], simulated: false } };
      }
      if (path === '/agent/reject') return { ...PLAN, status: 'rejected' };
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as ApiClient;
  const deps: CliDeps = {
    io: new IO(streams, { color: false }, { NO_COLOR: '1' }),
    env: {},
    streams,
    globals: {},
    client: async () => client,
    userZone: async () => 'UTC',
    exitCode: 0,
  };
  const asked: string[] = [];
  const queue = [...answers];
  const prompter: Prompter = {
    async select(message, choices) {
      asked.push(message);
      const a = queue.shift()!;
      expect(choices.map((c) => c.value)).toContain(a);
      return a as never;
    },
    async input(message, opts) {
      asked.push(message);
      const a = queue.shift()!;
      expect(opts.validate(a)).toBe(true);
      return a;
    },
  };
  return { deps, prompter, calls, asked, stdout: () => stdout };
}

describe('kairos plan at a terminal', () => {
  it('approve and execute', async () => {
    const t = setup(['approve-execute']);
    await runPlan({ args: ['Dentist', 'next', 'Tuesday', 'at', '3pm'], opts: {} }, t.deps, t.prompter);
    expect(t.calls.map((c) => c.path)).toEqual(['/agent/plan', '/agent/approve']);
    expect(t.calls[1]!.body).toEqual({ plan_id: 'pl_1', execute: true });
    expect(t.stdout()).toContain('“Dentist”');
    expect(t.stdout()).toContain('✔ Approved and executed pl_1');
  });

  it('edit the time and the duration (validated as typed), then approve only', async () => {
    const t = setup(['edit', 'time', '2031-01-07 16:30', 'edit', 'duration', '1h', 'approve']);
    await runPlan({ args: ['Dentist next Tuesday at 3pm'], opts: {} }, t.deps, t.prompter);
    const approve = t.calls.find((c) => c.path === '/agent/approve')!;
    expect(approve.body.execute).toBe(false);
    expect(approve.body.actions).toEqual([{ action_id: 'ac_1', scheduled_for: new Date(2031, 0, 7, 16, 30).toISOString(), duration_minutes: 60 }]);
    expect(t.stdout()).toContain('✔ Approved pl_1 (execute it with: kairos execute pl_1)');
  });

  it('reject with a reason', async () => {
    const t = setup(['reject', 'not this week']);
    await runPlan({ args: ['Dentist next Tuesday at 3pm'], opts: {} }, t.deps, t.prompter);
    expect(t.calls.at(-1)).toEqual({ method: 'POST', path: '/agent/reject', body: { plan_id: 'pl_1', reason: 'not this week' } });
    expect(t.stdout()).toContain('✘ Rejected pl_1');
  });

  it('a refused approval is shown and the person decides again', async () => {
    const t = setup(['approve-execute', 'keep'], true);
    await runPlan({ args: ['Dentist next Tuesday at 3pm'], opts: {} }, t.deps, t.prompter);
    expect(t.stdout()).toContain('✘ The plan breaks your constraints.');
    expect(t.stdout()).toContain('actions.0.scheduled_for: blocked (lunch)');
    expect(t.stdout()).toContain('Plan pl_1 stays in the queue');
    expect(t.asked).toEqual(['What now?', 'What now?']);
  });

  it('kairos chat shows a plan like kairos plan and offers the same choices', async () => {
    const t = setup(['approve-execute']);
    await runChat({ args: ['Dentist next Tuesday at 3pm'], opts: {} }, t.deps, t.prompter);
    expect(t.calls.map((c) => c.path)).toEqual(['/chat/respond', '/agent/approve']);
    expect(t.stdout()).toMatch(/^Proposed 1 action\.\n/);
  });
});
