import { type CliDeps, usage } from '../command-runtime.js';
import { promptContext } from './interrupt.js';
import { terminalPrompts } from './terminal-prompts.js';

/**
 * Destructive verbs ask on a TTY and want --yes otherwise. Returns false when the person said no.
 */
export async function confirmOrYes(deps: CliDeps, yes: boolean | undefined, question: string, byDefault = false): Promise<boolean> {
  if (yes) return true;
  if (!deps.io.interactive) throw usage(`${question} Pass --yes to confirm when not at a terminal.`);
  const { confirm } = await terminalPrompts();
  return confirm({ message: question, default: byDefault }, promptContext({ stdin: deps.streams.stdin, output: deps.streams.stderr }) as never);
}
