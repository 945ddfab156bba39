import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerToday(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('today')
      .description("today's agenda: events, plans approved and due, what agents proposed")
      .action(lazy(ctx, () => import('./today.js'))),
    ['kairos today', 'kairos today --json | jq .events'],
  );
}
