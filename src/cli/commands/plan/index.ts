import { type Command, Option } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerPlan(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('plan')
      .description('plan from plain English: propose actions with the reason for each time (on a terminal: approve, edit or reject at once)')
      .argument('<prompt...>', 'what to plan, e.g. gym tomorrow 7am for an hour and call mom Sunday at 6pm')
      .option('--preview', 'only show what would be planned; nothing enters the queue')
      .option('--task <task_id>', 'task every action belongs to')
      .option('-y, --yes', 'approve (and execute) without asking')
      .addOption(new Option('--no-execute', 'with --yes: approve only, execute later'))
      .action(lazy(ctx, () => import('./plan.js'))),
    [
      'kairos plan Dentist next Tuesday at 3pm for 45 minutes',
      'kairos plan --preview "find two hours for the tax return this week"',
      'kairos plan --yes --task health "gym every Monday and Wednesday at 7am in March"',
    ],
  );
}
