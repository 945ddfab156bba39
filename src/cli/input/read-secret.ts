import { text } from 'node:stream/consumers';
import { type CliDeps, usage } from '../command-runtime.js';

/** A password from stdin (--password-stdin) or a hidden prompt on a TTY. */
export async function readSecret(deps: CliDeps, fromStdin: boolean | undefined, message: string, confirmTwice = false): Promise<string> {
  if (fromStdin) return (await text(deps.streams.stdin)).replace(/\r?\n$/, '');
  if (!deps.io.interactive) throw usage('No terminal to prompt for the password: pass --password-stdin and pipe it in.');
  const { password } = await import('@inquirer/prompts');
  const ctx = { input: deps.streams.stdin, output: deps.streams.stderr };
  const first = await password({ message, mask: true }, ctx);
  if (confirmTwice && (await password({ message: 'Again:', mask: true }, ctx)) !== first) throw usage('The passwords differ.');
  return first;
}
