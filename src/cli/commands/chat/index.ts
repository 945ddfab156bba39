import { type Command, Option } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerChat(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('chat')
      .description('talk to kairos: a scheduling request becomes a plan, a note proposed traces, a question an answer from memory')
      .argument('<prompt...>', 'what to say')
      .option('--task <task_id>', 'task a plan or note belongs to')
      .option('-y, --yes', 'approve (and execute) a resulting plan, or save a note, without asking')
      .addOption(new Option('--no-execute', 'with --yes: approve only, execute later'))
      .action(lazy(ctx, () => import('./chat.js'))),
    [
      'kairos chat "gym tomorrow 7am for an hour and call mom Sunday at 6pm"',
      'kairos chat "when did I last go running?"',
      'kairos chat "note: slept badly, too much coffee" --yes',
    ],
  );
}
