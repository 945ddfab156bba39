import type { Action, ActionEdit, Plan } from '../../../contracts/plans.js';
import { AppError } from '../../../errors.js';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { allPlans } from '../../input/all-plans.js';
import { localInput, parseDuration, parseTime, parseTitle } from '../../input/edit-values.js';
import { isInterrupt, promptContext } from '../../input/interrupt.js';
import { terminalPrompts } from '../../input/terminal-prompts.js';
import { describeExecution, describePlan } from '../../output/plans.js';

const NON_INTERACTIVE = [
  'kairos queue                         list proposed plans',
  'kairos approve <plan…> [--no-execute] approve (and execute)',
  'kairos reject <plan> --reason <text>  reject',
  'kairos execute <task|plan> --simulate show what execution would change',
].join('\n  ');

type Decision = 'approved' | 'rejected' | 'skipped';

/** The plan as it will be approved: the pending edits applied, for display. */
function preview(plan: Plan, edits: ReadonlyMap<string, ActionEdit>): Plan {
  return {
    ...plan,
    actions: plan.actions.map((a): Action => {
      const e = edits.get(a.action_id);
      if (!e) return a;
      return {
        ...a,
        ...(e.title !== undefined ? { title: e.title } : {}),
        ...(e.scheduled_for !== undefined ? { scheduled_for: e.scheduled_for } : {}),
        ...(e.duration_minutes !== undefined ? { duration_minutes: e.duration_minutes } : {}),
        ...(e.content !== undefined ? { content: e.content } : {}),
        ...(e.status ? { status: e.status } : {}),
        edited: true,
      };
    }),
  };
}

/**
 * Interactive review (SPEC §6): each proposed plan in turn, with approve (and execute), edit an
 * action's title, time or duration (validated as typed), reject with a reason, skip and quit.
 */
export async function run({ opts }: RunInput<{ task?: string }>, deps: CliDeps): Promise<void> {
  if (!deps.io.interactive) {
    throw usage(`kairos review is interactive: it needs a terminal on stdin and stdout. Without one, use:\n  ${NON_INTERACTIVE}`);
  }
  const client = await deps.client();
  const { plans } = await allPlans(client, { status: 'proposed', task_id: opts.task });
  const io = deps.io;
  const c = io.chalk;
  const tz = await deps.userZone();
  if (!plans.length) {
    io.line(`Nothing to review: no proposed plans${opts.task ? ` for task ${opts.task}` : ''}.`);
    return;
  }
  const { select, input } = await terminalPrompts();
  const ctx = promptContext({ stdin: deps.streams.stdin, output: deps.streams.stdout }) as Parameters<typeof select>[1];
  const tally: Record<Decision, number> = { approved: 0, rejected: 0, skipped: 0 };

  const showError = (e: unknown) => {
    if (!(e instanceof AppError)) throw e;
    io.line(c.red(`✘ ${e.message}`));
    for (const d of e.details ?? []) io.line(c.red(`  ${d.path}: ${d.message}`));
  };

  /** Ask for one new value of one action; returns the edit, or undefined to go back. */
  const editAction = async (plan: Plan, edits: Map<string, ActionEdit>): Promise<void> => {
    const current = preview(plan, edits).actions;
    const action =
      current.length === 1
        ? current[0]!
        : await select(
            {
              message: 'Which action?',
              choices: current.map((a, i) => ({ value: a, name: `${i + 1}. ${a.kind} “${a.title}”${a.status === 'rejected' ? ' (left out)' : ''}` })),
            },
            ctx,
          );
    const fields = [
      { value: 'title', name: `Title (${action.title})` },
      ...(action.kind === 'reflect'
        ? [{ value: 'content', name: 'Text of the reflection' }]
        : [
            { value: 'time', name: `Time (${localInput(action.scheduled_for, tz)})` },
            { value: 'duration', name: `Duration (${action.duration_minutes} min)` },
          ]),
      ...(current.length > 1
        ? [{ value: action.status === 'rejected' ? 'keep' : 'drop', name: action.status === 'rejected' ? 'Put it back in' : 'Leave it out' }]
        : []),
      { value: 'back', name: 'Back' },
    ];
    const field = await select({ message: `Edit ${action.kind} “${action.title}”:`, choices: fields }, ctx);
    const edit: ActionEdit = { ...(edits.get(action.action_id) ?? { action_id: action.action_id }) };
    if (field === 'back') return;
    if (field === 'title') {
      const v = await input(
        { message: 'New title:', default: action.title, validate: (t) => ('error' in parseTitle(t) ? (parseTitle(t) as { error: string }).error : true) },
        ctx,
      );
      edit.title = (parseTitle(v) as { ok: string }).ok;
    } else if (field === 'content') {
      const v = await input({ message: 'New text:', default: action.content ?? '', validate: (t) => (t.trim() ? true : 'the text cannot be empty') }, ctx);
      edit.content = v.trim();
    } else if (field === 'time') {
      const v = await input(
        {
          message: `New start (YYYY-MM-DD HH:MM or HH:MM, ${tz}):`,
          default: localInput(action.scheduled_for, tz),
          validate: (t) => {
            const r = parseTime(t, action.scheduled_for, tz);
            return 'error' in r ? r.error : true;
          },
        },
        ctx,
      );
      edit.scheduled_for = (parseTime(v, action.scheduled_for, tz) as { ok: string }).ok;
    } else if (field === 'duration') {
      const v = await input(
        {
          message: 'New duration (minutes, or 1h30m):',
          default: String(action.duration_minutes),
          validate: (t) => {
            const r = parseDuration(t);
            return 'error' in r ? r.error : true;
          },
        },
        ctx,
      );
      edit.duration_minutes = (parseDuration(v) as { ok: number }).ok;
    } else if (field === 'drop') edit.status = 'rejected';
    else if (field === 'keep') delete edit.status;
    edits.set(action.action_id, edit);
  };

  const kept: string[] = [];
  let edits = new Map<string, ActionEdit>();
  let current: Plan | undefined;
  try {
    await reviewAll();
  } catch (e) {
    if (!isInterrupt(e)) throw e;
    // Ctrl-C: decisions already sent are kept; the edits of the plan on screen were never sent.
    const done = kept.length ? `kept: ${kept.join(', ')}` : 'no plan was approved or rejected';
    const lost = current && edits.size ? `; dropped: your unsaved edits to ${edits.size} action(s) of ${current.plan_id}` : '';
    io.error(
      `Interrupted (${tally.approved} approved, ${tally.rejected} rejected, ${tally.skipped} skipped): ${done}${lost}. Undecided plans stay in the queue.`,
    );
    throw e;
  }
  io.line('');
  io.line(`Reviewed: ${tally.approved} approved, ${tally.rejected} rejected, ${tally.skipped} skipped.`);

  async function reviewAll(): Promise<void> {
    for (const [n, plan] of plans.entries()) {
      edits = new Map<string, ActionEdit>();
      current = plan;
      let decision: Decision | 'quit' | undefined;
      while (!decision) {
        io.line('');
        io.line(c.dim(`Plan ${n + 1} of ${plans.length}`));
        io.line(describePlan(preview(plan, edits), c, tz));
        const choice = await select(
          {
            message: 'What now?',
            choices: [
              { value: 'approve-execute', name: edits.size ? 'Approve with my edits and execute' : 'Approve and execute' },
              { value: 'approve', name: 'Approve only (execute later)' },
              { value: 'edit', name: 'Edit an action' },
              { value: 'reject', name: 'Reject…' },
              { value: 'skip', name: 'Skip (decide later)' },
              { value: 'quit', name: 'Quit' },
            ],
          },
          ctx,
        );
        if (choice === 'edit') await editAction(plan, edits);
        else if (choice === 'approve' || choice === 'approve-execute') {
          const body = { plan_id: plan.plan_id, execute: choice === 'approve-execute', ...(edits.size ? { actions: [...edits.values()] } : {}) };
          try {
            const r = await client.call('POST /agent/approve', { body });
            io.line(c.green(`✔ ${r.execution ? 'Approved and executed' : 'Approved'} ${r.plan_id}${r.edited ? ' (edited)' : ''}`));
            if (r.execution) io.line(describeExecution(r.execution, c, tz));
            decision = 'approved';
            kept.push(`${r.plan_id} ${r.execution ? 'approved and executed' : 'approved'}`);
          } catch (e) {
            showError(e);
          }
        } else if (choice === 'reject') {
          const reason = (await input({ message: 'Why? (optional, remembered for the agents)' }, ctx)).trim();
          try {
            await client.call('POST /agent/reject', { body: { plan_id: plan.plan_id, ...(reason ? { reason } : {}) } });
            io.line(c.red(`✘ Rejected ${plan.plan_id}${reason ? `: ${reason}` : ''}`));
            decision = 'rejected';
            kept.push(`${plan.plan_id} rejected`);
          } catch (e) {
            showError(e);
          }
        } else if (choice === 'skip') decision = 'skipped';
        else decision = 'quit';
      }
      if (decision === 'quit') break;
      tally[decision]++;
      edits = new Map<string, ActionEdit>();
    }
  }
}
