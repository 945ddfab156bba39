import type { Command } from 'commander';

/** Attach examples to a command's help, as every command shows 2–3. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
