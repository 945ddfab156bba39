import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerStatus(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('status')
      .description('daemon, plan queue, planner and store at a glance')
      .action(lazy(ctx, () => import('./status.js'))),
    ['kairos status', 'kairos status --json | jq .queue'],
  );
}
