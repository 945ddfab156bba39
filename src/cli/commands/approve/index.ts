import type { Command } from 'commander';
import { arg } from '../../arg-kinds.js';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerApprove(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('approve')
      .description('approve proposed plans and execute them (approval and execution commit together)')
      .addArgument(arg('<plan...>', 'plan ids (pl_…)', { id: 'plan', offers: 'proposed-plan' }))
      .option('--no-execute', 'approve only; run `kairos execute` later')
      .action(lazy(ctx, () => import('./approve.js'))),
    ['kairos approve pl_01h…', 'kairos approve pl_01h… pl_01j… --no-execute', 'kairos approve pl_01h… --json | jq .execution.results'],
  );
}
