import type { ApiClient } from '../../client/http.js';
import type { ActionEdit, Plan } from '../../contracts/plans.js';
import { AppError } from '../../errors.js';
import type { CliDeps } from '../command-runtime.js';
import { localInput, parseDuration, parseTime, parseTitle } from '../input/edit-values.js';
import { isInterrupt } from '../input/interrupt.js';
import { inquirerPrompter, type Prompter } from '../input/prompter.js';
import { describeExecution, describePlan } from '../output/plans.js';
import { overlapNames } from './overlap-names.js';

const check = <T>(r: { ok: T } | { error: string }): true | string => ('error' in r ? r.error : true);

export interface AfterOptions {
  yes?: boolean;
  /** false: approve without executing. */
  execute?: boolean;
}

/**
 * What happens once a plan is proposed: `--yes` approves (and executes) it; at a terminal the
 * person decides at once (approve and execute, approve only, edit an action, reject, keep it in
 * the queue); otherwise the commands to decide later are shown. Shared by `kairos plan` and
 * `kairos chat`.
 */
export async function afterProposal(plan: Plan, opts: AfterOptions, deps: CliDeps, client: ApiClient, prompter?: Prompter): Promise<void> {
  const io = deps.io;
  const c = io.chalk;
  if (opts.yes) {
    const r = await client.call('POST /agent/approve', { body: { plan_id: plan.plan_id, execute: opts.execute !== false } });
    if (io.json) return io.data(r);
    const tz = await deps.userZone();
    io.line(describePlan(plan, c, tz, undefined, false, await overlapNames(client, plan.actions, tz)));
    io.line(
      r.execution
        ? `${c.green('✔')} Approved and executed ${r.plan_id}`
        : `${c.green('✔')} Approved ${r.plan_id} (execute it with: kairos execute ${r.plan_id})`,
    );
    if (r.execution) io.line(describeExecution(r.execution, c, tz));
    return;
  }
  if (io.json) return io.data(plan);
  const tz = await deps.userZone();
  io.line(describePlan(plan, c, tz, undefined, false, await overlapNames(client, plan.actions, tz)));
  if (!io.interactive) {
    io.note(
      `Plan ${plan.plan_id} is waiting in the queue. Approve and execute: kairos approve ${plan.plan_id} · reject: kairos reject ${plan.plan_id} · review: kairos review`,
    );
    return;
  }
  await decide(plan, deps, client, prompter ?? inquirerPrompter(deps));
}

/** What Ctrl-C leaves behind: the plan is still proposed; edits not yet approved are gone. */
function interrupted(plan: Plan, edits: ReadonlyMap<string, ActionEdit>): string {
  const dropped = edits.size ? `your unsaved edits to ${edits.size} action(s) were dropped` : 'nothing was changed';
  return `Interrupted: plan ${plan.plan_id} was not approved and stays in the queue (kairos review, or kairos approve ${plan.plan_id}); ${dropped}.`;
}

/** The terminal loop for one plan. */
export async function decide(plan: Plan, deps: CliDeps, client: ApiClient, ask: Prompter): Promise<void> {
  const io = deps.io;
  const edits = new Map<string, ActionEdit>();
  try {
    await decideLoop(plan, deps, client, ask, edits);
  } catch (e) {
    if (isInterrupt(e)) io.error(interrupted(plan, edits));
    throw e;
  }
}

async function decideLoop(plan: Plan, deps: CliDeps, client: ApiClient, ask: Prompter, edits: Map<string, ActionEdit>): Promise<void> {
  const io = deps.io;
  const c = io.chalk;
  const tz = await deps.userZone();
  for (;;) {
    const choice = await ask.select('What now?', [
      { value: 'approve-execute', name: edits.size ? 'Approve with my edits and execute' : 'Approve and execute' },
      { value: 'approve', name: 'Approve only (execute later)' },
      { value: 'edit', name: 'Edit an action' },
      { value: 'reject', name: 'Reject…' },
      { value: 'keep', name: 'Keep it in the queue (decide later)' },
    ]);
    if (choice === 'keep') {
      io.line(`Plan ${plan.plan_id} stays in the queue: kairos review, or kairos approve ${plan.plan_id}.`);
      return;
    }
    if (choice === 'edit') {
      await editAction(plan, edits, ask, tz);
      continue;
    }
    try {
      if (choice === 'reject') {
        const reason = (await ask.input('Why (optional):', { validate: () => true })).trim();
        await client.call('POST /agent/reject', { body: { plan_id: plan.plan_id, ...(reason ? { reason } : {}) } });
        io.line(`${c.red('✘')} Rejected ${plan.plan_id}`);
        return;
      }
      const execute = choice === 'approve-execute';
      const r = await client.call('POST /agent/approve', { body: { plan_id: plan.plan_id, execute, ...(edits.size ? { actions: [...edits.values()] } : {}) } });
      io.line(
        r.execution
          ? `${c.green('✔')} Approved and executed ${r.plan_id}`
          : `${c.green('✔')} Approved ${r.plan_id} (execute it with: kairos execute ${r.plan_id})`,
      );
      io.line(r.execution ? describeExecution(r.execution, c, tz) : describePlan(r, c, tz));
      return;
    } catch (e) {
      // A refused edit (blocked time, budget) is shown and the person decides again.
      if (!(e instanceof AppError) || e.status >= 500 || e.code === 'daemon_unreachable') throw e;
      io.line(c.red(`✘ ${e.message}`));
      for (const d of e.details ?? []) io.line(c.red(`  ${d.path}: ${d.message}`));
    }
  }
}

async function editAction(plan: Plan, edits: Map<string, ActionEdit>, ask: Prompter, tz: string): Promise<void> {
  const actions = plan.actions;
  const index =
    actions.length === 1
      ? 0
      : Number(
          await ask.select(
            'Which action?',
            actions.map((a, i) => ({ value: String(i), name: `${i + 1}. ${a.kind} “${edits.get(a.action_id)?.title ?? a.title}”` })),
          ),
        );
  const a = actions[index]!;
  const edit: ActionEdit = { ...(edits.get(a.action_id) ?? { action_id: a.action_id }) };
  const start = edit.scheduled_for ?? a.scheduled_for;
  const field = await ask.select(`Edit ${a.kind} “${edit.title ?? a.title}”:`, [
    { value: 'title', name: `Title (${edit.title ?? a.title})` },
    ...(a.kind === 'reflect'
      ? [{ value: 'content' as const, name: 'Text of the reflection' }]
      : [
          { value: 'time' as const, name: `Time (${localInput(start, tz)})` },
          { value: 'duration' as const, name: `Duration (${edit.duration_minutes ?? a.duration_minutes} min)` },
        ]),
    ...(actions.length > 1
      ? [{ value: edit.status === 'rejected' ? ('keep' as const) : ('drop' as const), name: edit.status === 'rejected' ? 'Put it back in' : 'Leave it out' }]
      : []),
    { value: 'back', name: 'Back' },
  ]);
  if (field === 'back') return;
  if (field === 'title')
    edit.title = (parseTitle(await ask.input('New title:', { default: edit.title ?? a.title, validate: (v) => check(parseTitle(v)) })) as { ok: string }).ok;
  else if (field === 'content')
    edit.content = (await ask.input('New text:', { default: a.content ?? '', validate: (v) => (v.trim() ? true : 'the text cannot be empty') })).trim();
  else if (field === 'time')
    edit.scheduled_for = (
      parseTime(
        await ask.input(`New start (YYYY-MM-DD HH:MM or HH:MM, ${tz}):`, { default: localInput(start, tz), validate: (v) => check(parseTime(v, start, tz)) }),
        start,
        tz,
      ) as { ok: string }
    ).ok;
  else if (field === 'duration')
    edit.duration_minutes = (
      parseDuration(
        await ask.input('New duration (minutes, or 1h30m):', {
          default: String(edit.duration_minutes ?? a.duration_minutes),
          validate: (v) => check(parseDuration(v)),
        }),
      ) as { ok: number }
    ).ok;
  else if (field === 'drop') edit.status = 'rejected';
  else if (field === 'keep') delete edit.status;
  edits.set(a.action_id, edit);
}
