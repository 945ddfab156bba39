import { Argument, type Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';
import { COMPLETE_KINDS, type CompleteKind } from './id-kinds.js';

/** The shells kairos writes completion scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function registerCompletion(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('completion')
      .description('print the shell completion script')
      .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
      .action(lazy(ctx, () => import('./completion.js'))),
    ['source <(kairos completion bash)', 'kairos completion zsh > "${fpath[1]}/_kairos"', 'kairos completion fish > ~/.config/fish/completions/kairos.fish'],
  );
}

/**
 * `kairos __complete <kind> [prefix]`, hidden: the ids the scripts offer, asked of a running daemon.
 * It runs on every Tab, so it loads no output layer (no `lazy`) and never starts the daemon.
 */
export function registerCompleteIds(program: Command, ctx: ProgramContext): void {
  program
    .command('__complete', { hidden: true })
    .description('ids for the shell completion scripts: one per line, a tab, a few words')
    .addArgument(new Argument('<kind>', 'what to list').choices(COMPLETE_KINDS))
    .argument('[prefix]', 'only ids starting with this')
    .action(async (kind: string, prefix: string | undefined) => {
      const { completeIds } = await import('./complete-ids.js');
      await completeIds(ctx, kind as CompleteKind, prefix ?? '');
    });
}
