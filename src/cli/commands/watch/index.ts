import type { Command } from 'commander';
import { intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerWatch(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('watch')
      .description('print live changes to plans, traces and events as they happen (Ctrl-C stops)')
      .option('-t, --topics <topics>', 'comma-separated: plans,traces,events (default all)')
      .option('-n, --count <n>', 'stop after this many events', intArg('--count', 1))
      .action(lazy(ctx, () => import('./watch.js'))),
    ['kairos watch', 'kairos watch --topics plans', 'kairos watch --json | jq -c "select(.type == \\"plan.proposed\\") | .data.plan_id"'],
  );
}
