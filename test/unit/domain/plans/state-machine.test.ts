import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import type { StoredTrace } from '../../../../src/contracts/memory.js';
import { PLAN_STATUSES, type PlanStatus } from '../../../../src/contracts/plans.js';
import { stageTrace } from '../../../../src/domain/memory/stage-trace.js';
import type { StoredPlan } from '../../../../src/domain/plans/plan.js';
import { assertTransition, canTransition, stageTransition, TRANSITIONS } from '../../../../src/domain/plans/state-machine.js';
import { AppError } from '../../../../src/errors.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

const LEGAL = new Set(['proposed>approved', 'proposed>rejected', 'approved>executed', 'executed>edited']);

describe('the transition table', () => {
  const pairs = PLAN_STATUSES.flatMap((from) => PLAN_STATUSES.map((to) => [from, to] as [PlanStatus, PlanStatus]));
  it.each(pairs)('%s → %s', (from, to) => {
    const legal = LEGAL.has(`${from}>${to}`);
    expect(canTransition(from, to)).toBe(legal);
    const attempt = () => assertTransition({ plan_id: 'pl_x', status: from }, to);
    if (legal) expect(attempt).not.toThrow();
    else {
      try {
        attempt();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).status).toBe(409);
        expect((e as AppError).code).toBe('invalid_transition');
        expect((e as AppError).message).toContain(from);
      }
    }
  });

  it('lists every status, and rejected and edited are final', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...PLAN_STATUSES].sort());
    expect(TRANSITIONS.rejected).toEqual([]);
    expect(TRANSITIONS.edited).toEqual([]);
  });
});

describe('stageTransition', () => {
  const home = tempHome();
  let store: Store;
  beforeAll(async () => {
    store = await Store.open(homePaths(home));
  });
  afterAll(async () => {
    await store.close();
    removeHome(home);
  });

  async function seed(): Promise<StoredPlan> {
    const now = new Date('2031-01-01T09:00:00Z');
    return store.transact((tx) => {
      const trace = stageTrace(tx, { user_id: 'usr_1', type: 'agent_plan', task_id: 't', content: 'plan', actor: 'bot' }, now);
      const plan: StoredPlan = {
        plan_id: `pl_${trace.uid}`,
        user_id: 'usr_1',
        task_id: 't',
        status: 'proposed',
        prompt: null,
        agent_id: 'bot',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        edited: false,
        reasoning: '',
        trace_uid: trace.uid,
        actions: [
          {
            action_id: 'ac_1',
            kind: 'add_event',
            task_id: 't',
            title: 'A',
            scheduled_for: now.toISOString(),
            duration_minutes: 30,
            estimate_minutes: 30,
            reasoning: '',
            confidence: 1,
            status: 'proposed',
          },
          {
            action_id: 'ac_2',
            kind: 'add_event',
            task_id: 't',
            title: 'B',
            scheduled_for: now.toISOString(),
            duration_minutes: 30,
            estimate_minutes: 30,
            reasoning: '',
            confidence: 1,
            status: 'rejected',
          },
        ],
      };
      tx.put('plans', plan);
      return plan;
    });
  }

  it('moves the plan and its live actions, and records a linked transition trace, atomically', async () => {
    const plan = await seed();
    const now = new Date('2031-01-01T10:00:00Z');
    const out = await store.transact((tx) =>
      stageTransition(tx, plan, 'approved', { actor: 'usr_1', now, reason: 'looks good', patch: { approved_at: now.toISOString() } }),
    );
    const stored = store.get<StoredPlan>('plans', plan.plan_id)!;
    expect(stored).toMatchObject({ status: 'approved', updated_at: now.toISOString(), approved_at: now.toISOString() });
    expect(stored.actions.map((a) => a.status)).toEqual(['approved', 'rejected']);
    const t = store.get<StoredTrace>('traces', out.trace.uid)!;
    expect(t).toMatchObject({
      type: 'transition',
      task_id: 't',
      linked_trace_ids: [plan.trace_uid],
      authored_by: 'usr_1',
      fields: { from: 'proposed', to: 'approved', actor: 'usr_1', plan_id: plan.plan_id, reason: 'looks good' },
    });
    expect(t.content).toContain(plan.plan_id);
  });

  it('an illegal move stages nothing', async () => {
    const plan = await seed();
    const traces = store.count('traces');
    await expect(store.transact((tx) => stageTransition(tx, plan, 'executed', { actor: 'x', now: new Date() }))).rejects.toMatchObject({
      code: 'invalid_transition',
    });
    expect(store.count('traces')).toBe(traces);
    expect(store.get<StoredPlan>('plans', plan.plan_id)!.status).toBe('proposed');
  });
});
