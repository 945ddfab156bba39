import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerUndo(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('undo')
      .description('take back your last change: an executed plan, an import, an event edit (shows what it will do first)')
      .argument('[change]', 'the change to undo (an id from --list; default the newest)')
      .option('--list', 'show recent changes that can be undone, newest first')
      .option('-y, --yes', 'undo without asking')
      .action(lazy(ctx, () => import('./undo.js'))),
    ['kairos undo', 'kairos undo --list', 'kairos undo im_01h… --yes'],
  );
}
