import type { Command } from 'commander';
import { arg } from '../../arg-kinds.js';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerExecute(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('execute')
      .description('execute an approved plan, or every approved plan of a task, all or nothing')
      .addArgument(arg('<task|plan>', 'a plan id (pl_…) or a task id', { id: 'plan-or-task' }))
      .option('--simulate', 'show what would change and change nothing')
      .action(lazy(ctx, () => import('./execute.js'))),
    ['kairos execute pl_01h… --simulate', 'kairos execute pl_01h…', 'kairos execute dentist --json | jq ".results[].event.uid"'],
  );
}
