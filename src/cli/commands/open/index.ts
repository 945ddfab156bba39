import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerOpen(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('open')
      .description('open the web page in the browser, signed in through a one-time link')
      .option('--print-url', 'print the one-time link instead of opening a browser (it works once, for 60 s)')
      .action(lazy(ctx, () => import('./open.js'))),
    ['kairos open', 'kairos open --print-url'],
  );
}
