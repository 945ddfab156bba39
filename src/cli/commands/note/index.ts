import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerNote(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('note')
      .description('write a note to memory in one line (or one note per line of stdin)')
      .argument('[text...]', 'the note; without it, stdin gives one note per line')
      .option('--task <task_id>', 'the task it belongs to (default: the task it clearly fits, else "notes")')
      .option('--type <type>', 'observation (default), goal or reflection')
      .action(lazy(ctx, () => import('./note.js'))),
    ['kairos note "Slept badly"', 'kairos note "Run a marathon in May" --type goal --task marathon', 'cat journal.txt | kairos note'],
  );
}
