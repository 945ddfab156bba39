import type { Command } from 'commander';
import { examples } from '../../examples.js';
import { lazy, type ProgramContext } from '../../kit.js';

export function registerExecute(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('execute')
      .description('execute an approved plan, or every approved plan of a task, all or nothing')
      .argument('<task|plan>', 'a plan id (pl_…) or a task id')
      .option('--simulate', 'show what would change and change nothing')
      .action(lazy(ctx, () => import('./execute.js'), { ids: 'plan-or-task' })),
    ['kairos execute pl_01h… --simulate', 'kairos execute pl_01h…', 'kairos execute dentist --json | jq ".results[].event.uid"'],
  );
}
