import type { Command } from 'commander';
import { arg } from '../../arg-kinds.js';
import { intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerFeedback(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('feedback')
      .description('rate or correct a plan or a trace; logged, and durations teach the tempo profile')
      .addArgument(arg('<uid>', 'a plan id (pl_…) or a trace uid, or a unique prefix of one', { id: 'plan-or-trace' }))
      .option('-r, --rating <n>', '1 (bad) – 5 (great)', intArg('--rating', 1))
      .option('-c, --comment <text>', "kept in the trace's notes")
      .option('--duration <minutes>', 'how long it really took (a revision that feeds duration biases)', intArg('--duration', 1))
      .option('--action <action_id>', 'which action of the plan the revision is about')
      .option('--revision <text>', 'what should have been different, in words')
      .action(lazy(ctx, () => import('./feedback.js'))),
    [
      'kairos feedback pl_01h… --rating 4',
      'kairos feedback pl_01h… --rating 2 --duration 90 --comment "meetings run long"',
      'kairos feedback tr_01h… --comment "spot on"',
    ],
  );
}
