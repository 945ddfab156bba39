import type { CliDeps } from '../command-runtime.js';
import { promptContext } from './interrupt.js';
import { terminalPrompts } from './terminal-prompts.js';

/** The questions asked at a terminal; injected so the flow is testable without one. */
export interface Prompter {
  select<T extends string>(message: string, choices: { value: T; name: string }[]): Promise<T>;
  input(message: string, opts: { default?: string; validate: (v: string) => true | string }): Promise<string>;
}

/** @inquirer/prompts on the command's own streams, loaded only when a question is asked. */
export function inquirerPrompter(deps: CliDeps): Prompter {
  const ctx = promptContext({ stdin: deps.streams.stdin, output: deps.streams.stdout }) as never;
  return {
    async select(message, choices) {
      const { select } = await terminalPrompts();
      return select({ message, choices }, ctx);
    },
    async input(message, opts) {
      const { input } = await terminalPrompts();
      return input({ message, default: opts.default, validate: opts.validate }, ctx);
    },
  };
}
