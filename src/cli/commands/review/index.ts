import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerReview(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('review')
      .description('step through proposed plans: approve (and execute), edit an action, reject with a reason, skip, quit')
      .option('--task <task_id>', 'only plans of this task')
      .action(lazy(ctx, () => import('./review.js'))),
    ['kairos review', 'kairos review --task dentist'],
  );
}
