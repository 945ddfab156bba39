import type { Command } from 'commander';
import { arg } from '../../arg-kinds.js';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerReject(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('reject')
      .description('reject a proposed plan (the reason is remembered)')
      .addArgument(arg('<plan>', 'plan id (pl_…)', { id: 'plan', offers: 'proposed-plan' }))
      .option('-r, --reason <text>', 'why: kept on the plan and in its transition trace')
      .action(lazy(ctx, () => import('./reject.js'))),
    ['kairos reject pl_01h… --reason "not this week"', 'kairos reject pl_01h… --json'],
  );
}
