import type { Command } from 'commander';
import { examples } from '../../examples.js';
import { lazy, type ProgramContext } from '../../kit.js';

export function registerCompletion(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('completion')
      .description('print the shell completion script')
      .argument('<shell>', 'bash, zsh or fish')
      .action(lazy(ctx, () => import('./completion.js'))),
    ['source <(kairos completion bash)', 'kairos completion zsh > "${fpath[1]}/_kairos"', 'kairos completion fish > ~/.config/fish/completions/kairos.fish'],
  );
}
