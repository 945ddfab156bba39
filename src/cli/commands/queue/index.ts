import type { Command } from 'commander';
import { opt } from '../../arg-kinds.js';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';
import { QUEUE_STATUSES } from './statuses.js';

export function registerQueue(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('queue')
      .description('list agent plans awaiting review (or in another status), one line per action')
      .addOption(opt('-s, --status <status>', `${QUEUE_STATUSES.join('|')} (default proposed)`, { values: () => QUEUE_STATUSES }))
      .option('--task <task_id>', 'only plans of this task')
      .option('-v, --verbose', "each plan's prompt and reasoning, and why each action is where it is")
      .action(lazy(ctx, () => import('./queue.js'))),
    ['kairos queue', 'kairos queue --verbose', 'kairos queue --status executed --task dentist', 'kairos queue --status all --json | jq -r ".plans[].plan_id"'],
  );
}
