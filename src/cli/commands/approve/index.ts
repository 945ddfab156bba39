import type { Command } from 'commander';
import { examples } from '../../examples.js';
import { lazy, type ProgramContext } from '../../kit.js';

export function registerApprove(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('approve')
      .description('approve proposed plans and execute them (approval and execution commit together)')
      .argument('<plan...>', 'plan ids (pl_…)')
      .option('--no-execute', 'approve only; run `kairos execute` later')
      .action(lazy(ctx, () => import('./approve.js'), { ids: 'plan' })),
    ['kairos approve pl_01h…', 'kairos approve pl_01h… pl_01j… --no-execute', 'kairos approve pl_01h… --json | jq .execution.results'],
  );
}
