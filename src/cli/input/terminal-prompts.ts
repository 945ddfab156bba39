import { forTerminal, visible } from '../output/terminal-text.js';

type Context = Parameters<typeof import('@inquirer/prompts')['input']>[1];

interface Choice<T> {
  value: T;
  name: string;
}

/** The @inquirer prompts the CLI asks, as a person sees them. */
export interface TerminalPrompts {
  select<T>(config: { message: string; choices: readonly Choice<T>[] }, context?: Context): Promise<T>;
  input(config: { message: string; default?: string; validate?: (v: string) => boolean | string }, context?: Context): Promise<string>;
  confirm(config: { message: string; default?: boolean }, context?: Context): Promise<boolean>;
}

/**
 * @inquirer/prompts with what they show (questions, choices, a default answer) passed through
 * `forTerminal`: a plan's titles and a server's texts appear in them. A default shown in its
 * visible form and accepted as it is gives back the original value.
 */
export async function terminalPrompts(): Promise<TerminalPrompts> {
  const p = await import('@inquirer/prompts');
  return {
    select: (config, context) =>
      p.select({ message: forTerminal(config.message), choices: config.choices.map((c) => ({ value: c.value, name: forTerminal(c.name) })) }, context),
    async input(config, context) {
      const shown = config.default === undefined ? undefined : visible(config.default);
      const answer = await p.input({ ...config, message: forTerminal(config.message), default: shown }, context);
      return answer === shown ? config.default! : answer;
    },
    confirm: (config, context) => p.confirm({ ...config, message: forTerminal(config.message) }, context),
  };
}
